/**
 * Approval notices over ntfy, published as JSON (POST to the server's root URL with `topic`) so
 * they can carry action buttons: each button is ntfy's `http` action, a POST to a capability URL
 * that does one thing once (https://docs.ntfy.sh/publish/#action-buttons).
 */
import type { RadarConfig } from "../config/schema.ts";
import { configSecrets } from "../config/secrets.ts";
import type { ApprovalNotice, ApprovalNotifier } from "../core/approvals.ts";
import type { Logger } from "../core/ports.ts";
import { redactText } from "../core/redact.ts";

/** ntfy's numeric priorities in JSON. */
const priorities = { default: 3, high: 4 } as const;

/** The JSON body ntfy takes for a notice (title, message, click target, http action buttons). */
export function ntfyNoticeBody(topic: string, notice: ApprovalNotice): Record<string, unknown> {
  return {
    topic,
    title: notice.title,
    message: notice.message,
    priority: priorities[notice.priority ?? "default"],
    tags: ["radar"],
    ...(notice.click ? { click: notice.click } : {}),
    actions: notice.buttons.map((button) => ({
      action: "http",
      label: button.label,
      url: button.url,
      method: "POST",
      clear: true,
    })),
  };
}

/** Sends approval notices to `notifications.ntfy`; failures are logged (never thrown). */
export function ntfyApprovalNotifier(
  deps: { config: RadarConfig; fetch: typeof fetch; logger: Logger },
): ApprovalNotifier {
  return async (notice) => {
    const ntfy = deps.config.notifications.ntfy;
    if (!ntfy.topic) return;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (ntfy.token) headers.Authorization = `Bearer ${ntfy.token}`;
    try {
      const response = await deps.fetch(`${ntfy.url.replace(/\/+$/, "")}/`, {
        method: "POST",
        headers,
        body: JSON.stringify(ntfyNoticeBody(ntfy.topic, notice)),
        signal: AbortSignal.timeout(15_000),
      });
      await response.body?.cancel();
      if (!response.ok) {
        deps.logger.warn("ntfy refused an approval notice", {
          approval: notice.approvalId,
          status: response.status,
        });
      }
    } catch (error) {
      deps.logger.warn("cannot send an approval notice", {
        approval: notice.approvalId,
        error: redactText((error as Error).message.split("\n")[0], configSecrets(deps.config)),
      });
    }
  };
}
