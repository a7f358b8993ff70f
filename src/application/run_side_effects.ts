/**
 * A run's outbox (`SideEffectLog`) over the `outbox` table. Keys are `<scope>:<kind>#<n>`: the
 * scope names what the run works on and survives a crash (a heartbeat's first event, a task's
 * due time), `n` counts the run's calls of that kind. A re-delivered run that repeats a call finds
 * its key and does not act again.
 */
import type { Outbox } from "../core/work_ports.ts";
import type { Clock } from "../core/ports.ts";
import type { SideEffectClaim, SideEffectLog, SideEffectRecord } from "../core/side_effects.ts";

/** The side-effect log of one run under `scope`. */
export function runSideEffects(
  outbox: Outbox,
  scope: string,
  clock: Clock,
  pid: number,
): SideEffectLog {
  const counts = new Map<string, number>();
  return {
    begin(kind: string, summary: string, record: SideEffectRecord = {}): SideEffectClaim {
      const index = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, index);
      const key = `${scope}:${kind}#${index}`;
      const existing = outbox.claim({ ...record, key, kind, summary, at: clock.now(), pid });
      if (existing) {
        return {
          state: existing.sentAt ? "sent" : "unknown",
          key,
          summary: existing.summary,
          at: existing.sentAt ?? existing.createdAt,
        };
      }
      return {
        state: "new",
        key,
        done: (result) => outbox.markSent(key, clock.now(), result),
        abandon: (result) => outbox.markFailed(key, clock.now(), result),
      };
    },
  };
}

/** The outbox scope of a heartbeat: its oldest event (stable while the batch is re-delivered). */
export function heartbeatScope(firstEventId: number | undefined, runId: number): string {
  return firstEventId === undefined ? `heartbeat:run:${runId}` : `heartbeat:event:${firstEventId}`;
}

/** The outbox scope of a task run: the due time it runs for (a manual run: its run id). */
export function taskScope(taskId: number, dueAt: string | undefined, runId: number): string {
  return dueAt ? `task:${taskId}:due:${dueAt}` : `task:${taskId}:run:${runId}`;
}
