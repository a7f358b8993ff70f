/** The Notifier over ntfy: one POST to `<url>/<topic>` with title, priority, tags and token headers. */
import type { RadarConfig } from "../config/schema.ts";
import type { Delivery, Notification, Notifier } from "../core/notifier.ts";

/** How long one send may take. */
const sendTimeoutMs = 15_000;

/** Sends through the ntfy server and topic of `notifications.ntfy` (read at each send). */
export class NtfyNotifier implements Notifier {
  constructor(private readonly deps: { config: RadarConfig; fetch: typeof fetch }) {}

  /** The configured topic. */
  topic(): string | undefined {
    return this.deps.config.notifications.ntfy.topic || undefined;
  }

  /** POSTs the notification; every failure is one line (masked where it is stored or shown). */
  async send(notification: Notification, signal: AbortSignal): Promise<Delivery> {
    const { config } = this.deps;
    const ntfy = config.notifications.ntfy;
    const topic = this.topic();
    if (!topic) {
      return {
        sent: false,
        error:
          "Notifications are not configured: set notifications.ntfy.topic in radar.yaml (or RADAR_NTFY_TOPIC).",
      };
    }
    const { title, message, priority, tags } = notification;
    // Buttons and a click target need ntfy's JSON publishing (a POST to the server's root URL).
    const json = notification.buttons?.length || notification.click;
    const base = ntfy.url.replace(/\/+$/, "");
    const url = json ? `${base}/` : `${base}/${encodeURIComponent(topic)}`;
    const headers: Record<string, string> = {
      "Content-Type": json ? "application/json" : "text/plain; charset=utf-8",
    };
    if (title && !json) headers.Title = headerValue(title);
    if (priority && !json) headers.Priority = priority;
    if (tags?.length && !json) headers.Tags = headerValue(tags.join(","));
    if (ntfy.token) headers.Authorization = `Bearer ${ntfy.token}`;
    const failure = (error: string, status?: number): Delivery => ({
      sent: false,
      topic,
      status,
      error,
    });
    let response: Response;
    try {
      response = await this.deps.fetch(url, {
        method: "POST",
        headers,
        body: json ? JSON.stringify(ntfyJsonBody(topic, notification)) : message,
        signal: AbortSignal.any([signal, AbortSignal.timeout(sendTimeoutMs)]),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failure(`Cannot reach ntfy at ${ntfy.url}: ${reason.split("\n")[0]}`);
    }
    const body = await response.text().catch(() => "");
    if (!response.ok) {
      let detail = body.slice(0, 200).trim();
      try {
        detail = JSON.parse(body).error ?? detail;
      } catch { /* plain text */ }
      return failure(
        `ntfy refused the notification: ${response.status} ${response.statusText}${
          detail ? ` (${detail})` : ""
        }`,
        response.status,
      );
    }
    return { sent: true, topic, status: response.status };
  }
}

/** ntfy's numeric priorities in JSON. */
const priorityNumbers = { min: 1, low: 2, default: 3, high: 4, urgent: 5 } as const;

/**
 * The JSON body ntfy publishes (https://docs.ntfy.sh/publish/#publish-as-json): topic, title,
 * message, priority, click target and action buttons, each clearing the notification once tapped:
 * `http` (a POST from the phone) or `view` (opens the URL in the browser).
 */
function ntfyJsonBody(topic: string, notification: Notification): Record<string, unknown> {
  return {
    topic,
    message: notification.message,
    ...(notification.title ? { title: notification.title } : {}),
    ...(notification.priority ? { priority: priorityNumbers[notification.priority] } : {}),
    ...(notification.tags?.length ? { tags: [...notification.tags] } : {}),
    ...(notification.click ? { click: notification.click } : {}),
    ...(notification.buttons?.length
      ? {
        actions: notification.buttons.map((button) =>
          button.tap === "open"
            ? { action: "view", label: button.label, url: button.url, clear: true }
            : { action: "http", label: button.label, url: button.url, method: "POST", clear: true }
        ),
      }
      : {}),
  };
}

/** Header values must be Latin-1; anything else is sent RFC 2047-encoded, which ntfy decodes. */
function headerValue(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  const bytes = new TextEncoder().encode(flat);
  return `=?UTF-8?B?${btoa(String.fromCharCode(...bytes))}?=`;
}
