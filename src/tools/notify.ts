/** `notify`: send a push notification through ntfy. */
import { z } from "zod";
import { type NotificationGate, quietHoursGate } from "../core/notification_gate.ts";
import { redactText } from "../core/redact.ts";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool, unoffered } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { configSecrets } from "../config/secrets.ts";

/** Priorities that count as urgent: they go out during quiet hours. */
export const urgentPriorities: ReadonlySet<string> = new Set(["high", "urgent"]);

/** ntfy's priorities, 1 to 5 (ntfy also calls 5 `max`). */
export const ntfyPriorities = ["min", "low", "default", "high", "urgent"] as const;

/** Other words models use for a priority (ntfy's `max` and numbers included). */
const priorityAliases: Record<string, (typeof ntfyPriorities)[number]> = {
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
    return ntfyPriorities[value - 1];
  }
  if (typeof value !== "string") return value;
  const word = value.trim().toLowerCase();
  if (/^[1-5]$/.test(word)) return ntfyPriorities[Number(word) - 1];
  if ((ntfyPriorities as readonly string[]).includes(word)) return word;
  return priorityAliases[word] ?? value;
}

/** Tags as a list: ntfy takes them comma-separated, models send a list or that text. */
function tagList(value: unknown): unknown {
  if (typeof value === "string") return value.split(",").map((tag) => tag.trim()).filter(Boolean);
  return value;
}

/**
 * The offered schema names the three priorities a model needs (each offered value costs tokens
 * on every request); every ntfy priority and `tags` are accepted all the same.
 */
const notifyInput = z.object({
  message: z.string().min(1).max(4000),
  title: z.string().max(200).optional(),
  priority: z.preprocess(ntfyPriority, z.string().max(40)).optional()
    .meta({ type: "string", enum: ["low", "high", "urgent"] }),
  tags: z.preprocess(tagList, z.array(z.string().min(1).max(60)).max(10)).optional()
    .meta(unoffered),
});

/**
 * Creates the notify tool. During quiet hours the gate holds back heartbeat notifications
 * unless their priority is high or urgent; chat, ask and scheduled tasks are things a person
 * asked for, so they are not held back.
 */
export function notifyTool(
  deps:
    & Pick<ToolDependencies, "config" | "fetch">
    & Partial<Pick<ToolDependencies, "clock" | "notificationGate">>,
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
    input: notifyInput,
    run: async ({ message, title, priority: given, tags }, context) => {
      const known = given === undefined || (ntfyPriorities as readonly string[]).includes(given);
      const priority = known ? given : "default";
      const note = known ? "" : ` Sent at the default priority: "${given}" is not an ntfy one.`;
      const ntfy = deps.config.notifications.ntfy;
      if (!ntfy.topic) {
        return failed(
          "Notifications are not configured: set notifications.ntfy.topic in radar.yaml (or RADAR_NTFY_TOPIC).",
        );
      }
      if (context.kind === "heartbeat" && gate) {
        const verdict = gate.check({ urgent: urgentPriorities.has(priority ?? "default") });
        if (!verdict.allowed) {
          return refused(`Not sent: ${verdict.reason}. Use priority high only if it cannot wait.`);
        }
      }
      // Recorded before it is sent: a crash and the re-delivered run never send this key twice.
      const claim = context.sideEffects?.begin("notify", title ? `${title}: ${message}` : message);
      if (claim && claim.state !== "new") {
        const when = claim.state === "sent" ? "was sent" : "was being sent when Radar stopped";
        return `Already notified: an earlier attempt of this run's notification ${when} ` +
          `(${claim.at}): "${claim.summary.slice(0, 200)}". Not sent again.`;
      }
      const url = `${ntfy.url.replace(/\/+$/, "")}/${encodeURIComponent(ntfy.topic)}`;
      const headers: Record<string, string> = { "Content-Type": "text/plain; charset=utf-8" };
      if (title) headers.Title = headerValue(title);
      if (priority) headers.Priority = priority;
      if (tags?.length) headers.Tags = headerValue(tags.join(","));
      if (ntfy.token) headers.Authorization = `Bearer ${ntfy.token}`;
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(15_000)]);
      let response: Response;
      try {
        response = await deps.fetch(url, { method: "POST", headers, body: message, signal });
      } catch (error) {
        claim?.abandon();
        const reason = error instanceof Error ? error.message : String(error);
        return failed(
          redactText(
            `Cannot reach ntfy at ${ntfy.url}: ${reason.split("\n")[0]}`,
            configSecrets(deps.config),
          ),
        );
      }
      const body = await response.text().catch(() => "");
      if (!response.ok) {
        claim?.abandon();
        let detail = body.slice(0, 200).trim();
        try {
          detail = JSON.parse(body).error ?? detail;
        } catch { /* plain text */ }
        return failed(
          redactText(
            `ntfy refused the notification: ${response.status} ${response.statusText}${
              detail ? ` (${detail})` : ""
            }`,
            configSecrets(deps.config),
          ),
        );
      }
      claim?.done();
      return `Notification sent to ntfy topic ${ntfy.topic}.${note}`;
    },
  });
}

/** Header values must be Latin-1; anything else is sent RFC 2047-encoded, which ntfy decodes. */
function headerValue(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  const bytes = new TextEncoder().encode(flat);
  return `=?UTF-8?B?${btoa(String.fromCharCode(...bytes))}?=`;
}
