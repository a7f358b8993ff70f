/** `notify`: push a notification to the user through the Notifier (ntfy), once per outbox key. */
import { z } from "zod";
import { type NotificationGate, quietHoursGate } from "../core/notification_gate.ts";
import { notifyOnce, notifyOutcomeLine } from "../core/notifier.ts";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Priorities that count as urgent: they go out during quiet hours. */
export const urgentPriorities: ReadonlySet<string> = new Set(["high", "urgent"]);

/**
 * Creates the notify tool. During quiet hours the gate holds back heartbeat notifications
 * unless their priority is high or urgent; chat, ask and scheduled tasks are things a person
 * asked for, so they are not held back. A daemon run's notifications go under its outbox keys
 * (never twice after a crash); other runs' under a fresh key each, so every one is recorded.
 */
export function notifyTool(
  deps:
    & Pick<ToolDependencies, "config" | "notifier">
    & Partial<Pick<ToolDependencies, "clock" | "notificationGate" | "sideEffectLog">>,
): Tool {
  const gate: NotificationGate | undefined = deps.notificationGate ??
    (deps.clock
      ? quietHoursGate(
        deps.config.heartbeat.quiet_hours,
        deps.clock,
        deps.config.radar.timezone || undefined,
      )
      : undefined);
  return defineTool({
    name: "notify",
    description: "Push a notification to the user",
    keywords: ["notify", "notification", "alert", "tell", "ping", "remind", "send", "message"],
    input: z.object({
      message: z.string().min(1).max(4000),
      title: z.string().max(200).optional(),
      // ntfy's min/default and tags are left out: each offered value costs tokens on every request.
      priority: z.enum(["low", "high", "urgent"]).optional(),
    }),
    run: async ({ message, title, priority }, context) => {
      if (context.kind === "heartbeat" && gate) {
        const verdict = gate.check({ urgent: urgentPriorities.has(priority ?? "default") });
        if (!verdict.allowed) {
          return refused(`Not sent: ${verdict.reason}. Use priority high only if it cannot wait.`);
        }
      }
      const log = context.sideEffects ??
        deps.sideEffectLog?.(`${context.kind}:${crypto.randomUUID()}`);
      const outcome = await notifyOnce(
        deps.notifier,
        log,
        { message, title, priority },
        context.signal,
      );
      const line = notifyOutcomeLine(outcome);
      return outcome.state === "failed" ? failed(line) : line;
    },
  });
}
