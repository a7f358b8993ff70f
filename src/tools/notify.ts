/** `notify`: push a notification to the user through the Notifier (ntfy), once per outbox key. */
import { z } from "zod";
import {
  isNotificationPriority,
  type NotificationGate,
  notificationPriorities,
  type NotificationPriority,
  notifyOnce,
  notifyOutcomeLine,
  quietHoursGate,
} from "../core/notifier.ts";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Priorities that count as urgent: they go out during quiet hours. */
export const urgentPriorities: ReadonlySet<string> = new Set(["high", "urgent"]);

/** Other words models use for a priority (ntfy's `max` and numbers included). */
const priorityAliases: Record<string, NotificationPriority> = {
  max: "urgent",
  lowest: "min",
  normal: "default",
  medium: "default",
  important: "high",
  highest: "urgent",
  critical: "urgent",
  emergency: "urgent",
};

/**
 * ntfy's name for a priority a model gave: any of ntfy's names or numbers (1–5, also as text),
 * in any case; other text is returned as given (sent at the default priority, with a note).
 */
export function ntfyPriority(value: unknown): unknown {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 5) {
    return notificationPriorities[value - 1];
  }
  if (typeof value !== "string") return value;
  const word = value.trim().toLowerCase();
  if (/^[1-5]$/.test(word)) return notificationPriorities[Number(word) - 1];
  if (isNotificationPriority(word)) return word;
  return priorityAliases[word] ?? value;
}

/** Tags as ntfy takes them, comma-separated: models send a list or that text. */
function tagText(value: unknown): unknown {
  return Array.isArray(value) && value.every((tag) => typeof tag === "string")
    ? value.join(",")
    : value;
}

/** The tags of comma-separated text, without blanks. */
function tagList(text: string): string[] {
  return text.split(",").map((tag) => tag.trim()).filter(Boolean);
}

/**
 * The offered schema names the three priorities a model needs (each offered value costs tokens
 * on every request; every ntfy priority is accepted all the same) and the tags ntfy shows as
 * emoji ("warning,floppy_disk"), offered as the comma-separated text ntfy takes. Built on first
 * use (offered as written in src/core/tool_parameters.ts).
 */
export const notifyInput = lazyValue(() =>
  z.object({
    message: z.string().min(1).max(4000),
    title: z.string().max(200).optional(),
    priority: z.preprocess(ntfyPriority, z.string().max(40)).optional()
      .meta({ type: "string", enum: ["low", "high", "urgent"] }),
    tags: z.preprocess(
      tagText,
      z.string().refine((text) => {
        const tags = tagList(text);
        return tags.length <= 10 && tags.every((tag) => tag.length <= 60);
      }, "at most 10 tags of at most 60 characters"),
    ).optional(),
  })
);

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
    effect: "notifies_user",
    resultIsData: false,
    description: "Push-notify the user",
    keywords: ["notify", "notification", "alert", "tell", "ping", "remind", "send", "message"],
    parameters: toolParameters.notify,
    input: notifyInput,
    run: async ({ message, title, priority: given, tags }, context) => {
      const priority = given === undefined || isNotificationPriority(given) ? given : "default";
      const note = priority === given
        ? ""
        : ` Sent at the default priority: "${given}" is not an ntfy one.`;
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
        { message, title, priority, tags: tags === undefined ? undefined : tagList(tags) },
        context.signal,
      );
      const line = notifyOutcomeLine(outcome);
      return outcome.state === "failed" ? failed(line) : `${line}${note}`;
    },
  });
}
