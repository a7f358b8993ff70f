/** `notify`: send a push notification through ntfy. */
import { z } from "zod";
import { type NotificationGate, quietHoursGate } from "../core/notification_gate.ts";
import { redactText } from "../core/redact.ts";
import { failed, refused, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { configSecrets } from "../config/secrets.ts";

/** Priorities that count as urgent: they go out during quiet hours. */
export const urgentPriorities: ReadonlySet<string> = new Set(["high", "urgent"]);

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
    effect: "notifies_user",
    resultIsData: false,
    description: "Push a notification to the user",
    keywords: ["notify", "notification", "alert", "tell", "ping", "remind", "send", "message"],
    input: z.object({
      message: z.string().min(1).max(4000),
      title: z.string().max(200).optional(),
      // ntfy's min/default and tags are left out: each offered value costs tokens on every request.
      priority: z.enum(["low", "high", "urgent"]).optional(),
    }),
    run: async ({ message, title, priority }, context) => {
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
      return `Notification sent to ntfy topic ${ntfy.topic}.`;
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
