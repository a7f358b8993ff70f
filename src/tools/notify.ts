/** `notify`: send a push notification through ntfy. */
import { z } from "zod";
import { redactText } from "../core/redact.ts";
import { defineTool, failed, type Tool } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { configSecrets } from "./secrets.ts";

/** Creates the notify tool. */
export function notifyTool(deps: Pick<ToolDependencies, "config" | "fetch">): Tool {
  return defineTool({
    name: "notify",
    description: "Send the user a push notification",
    keywords: ["notify", "notification", "alert", "tell", "ping", "remind", "send", "message"],
    input: z.object({
      message: z.string().min(1).max(4000),
      title: z.string().max(200).optional(),
      priority: z.enum(["min", "low", "default", "high", "urgent"]).optional(),
      tags: z.string().max(200).optional().describe("Comma-separated, e.g. warning,inbox"),
    }),
    run: async ({ message, title, priority, tags }, context) => {
      const ntfy = deps.config.notifications.ntfy;
      if (!ntfy.topic) {
        return failed(
          "Notifications are not configured: set notifications.ntfy.topic in radar.yaml (or RADAR_NTFY_TOPIC).",
        );
      }
      const url = `${ntfy.url.replace(/\/+$/, "")}/${encodeURIComponent(ntfy.topic)}`;
      const headers: Record<string, string> = { "Content-Type": "text/plain; charset=utf-8" };
      if (title) headers.Title = headerValue(title);
      if (priority && priority !== "default") headers.Priority = priority;
      if (tags) {
        headers.Tags = headerValue(
          tags.split(",").map((tag) => tag.trim()).filter(Boolean).join(","),
        );
      }
      if (ntfy.token) headers.Authorization = `Bearer ${ntfy.token}`;
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(15_000)]);
      let response: Response;
      try {
        response = await deps.fetch(url, { method: "POST", headers, body: message, signal });
      } catch (error) {
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
