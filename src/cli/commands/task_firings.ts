/**
 * `radar task log`'s delivery receipts: each time a task was due and what became of it (ran,
 * failed, caught up late after downtime, missed during downtime, busy, retried after a crash, run
 * now), with the notifications that run sent and whether they reached you.
 */
import type { TaskFiring } from "../../away/mod.ts";
import type { OutboxEntry } from "../../core/work_ports.ts";
import { taskScope } from "../../core/run_side_effects.ts";
import type { Radar } from "../../runtime/open_radar.ts";
import { deliveryWords } from "./notifications.ts";
import { formatDateTime } from "../../core/zoned_time.ts";

/** One firing: "2026-11-24 09:00  task #3  due 2026-11-24 09:00 → ran (caught up late)". */
export function firingLine(firing: TaskFiring, timeZone?: string): string {
  const flags = [
    firing.caughtUp ? "caught up late" : "",
    firing.retried ? "retried after a crash" : "",
  ].filter(Boolean);
  const note = firing.note && firing.state !== "ran" ? `: ${firing.note}` : "";
  return `${formatDateTime(new Date(firing.firedAt), timeZone)}  task #${firing.taskId}  due ${
    formatDateTime(new Date(firing.dueAt), timeZone)
  } → ${firing.state}${flags.length ? ` (${flags.join(", ")})` : ""}${note}${
    firing.conversationId === undefined ? "" : `  [conversation #${firing.conversationId}]`
  }`;
}

/** The notifications a firing's run sent (its outbox scope), oldest first. */
export function firingNotifications(
  radar: Pick<Radar, "outbox">,
  firing: TaskFiring,
): OutboxEntry[] {
  if (firing.runId === undefined) return [];
  const dueAt = firing.note === "run now" ? undefined : firing.dueAt;
  return radar.outbox.inScope(taskScope(firing.taskId, dueAt, firing.runId))
    .filter((entry) => entry.kind === "notify");
}

/** The firings as `radar task log` prints them, oldest first, each with its notifications. */
export function firingLines(
  radar: Pick<Radar, "outbox" | "config">,
  firings: TaskFiring[],
): string[] {
  const zone = radar.config.radar.timezone || undefined;
  return [...firings].reverse().flatMap((firing) => [
    `  ${firingLine(firing, zone)}`,
    ...firingNotifications(radar, firing).map((entry) =>
      `      notified: ${deliveryWords(entry)} — "${(entry.body ?? entry.summary).slice(0, 80)}"`
    ),
  ]);
}
