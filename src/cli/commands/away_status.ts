/**
 * `radar status`'s lines about acting while you are away: what waits for your yes, the standing
 * grants, and notifications that could not be delivered (a reminder that never reached you says
 * so here instead of looking like success).
 */
import type { Radar } from "../../runtime/open_radar.ts";

/** Days back `radar status` looks for undeliverable notifications. */
const undeliverableDays = 7;

/** The status lines. */
export async function awayStatusLines(radar: Radar): Promise<string[]> {
  const pending = radar.away.approvals.list({ pendingOnly: true, limit: 500 });
  const grants = await radar.away.grants.list();
  const since = new Date(radar.clock.now().getTime() - undeliverableDays * 86_400_000);
  const lost = radar.outbox.undeliverable("notify", since);
  const lines = [
    `approvals: ${
      pending.length
        ? `${pending.length} waiting for your yes (radar approvals list)`
        : "nothing waiting"
    }; ${grants.length} standing grant${grants.length === 1 ? "" : "s"}`,
  ];
  if (lost.count) {
    const latest = lost.latest!;
    lines.push(
      `notifications: ${lost.count} UNDELIVERABLE in ${undeliverableDays} days; newest ` +
        `"${(latest.title ?? latest.summary).slice(0, 80)}" (${latest.error ?? "failed"}) — ` +
        "radar notifications",
    );
  }
  return lines;
}
