/**
 * A run's outbox (`SideEffectLog`) over the `outbox` table. Keys are `<scope>:<kind>#<n>`: the
 * scope names what the run works on and survives a crash (a heartbeat's first event, a task's
 * due time), `n` counts the run's calls of that kind. A re-delivered run that repeats a call finds
 * its key and does not act again. A notification whose sender died between claiming its key and
 * recording the answer is sent again (at least once: a lost reminder is worse than a repeated one;
 * the repeat window is the moment between ntfy's answer and the record); other kinds are not.
 */
import type { Outbox, OutboxEntry } from "./work_ports.ts";
import type { Clock } from "./ports.ts";
import type { SideEffectClaim, SideEffectLog, SideEffectRecord } from "./side_effects.ts";

/** The side-effect log of one run under `scope`. */
export function runSideEffects(
  outbox: Outbox,
  scope: string,
  clock: Clock,
  pid: number,
  isAlive: (pid: number) => boolean,
): SideEffectLog {
  const counts = new Map<string, number>();
  return {
    begin(kind: string, summary: string, record: SideEffectRecord = {}): SideEffectClaim {
      const index = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, index);
      const key = `${scope}:${kind}#${index}`;
      const entry = { ...record, key, kind, summary, at: clock.now(), pid };
      let existing = outbox.claim(entry);
      if (existing && interrupted(existing, kind, pid, isAlive)) {
        outbox.markFailed(key, clock.now(), {
          error: `interrupted: Radar (PID ${existing.pid}) stopped`,
        });
        existing = outbox.claim(entry);
      }
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

/** Kinds sent again when their sender died mid-send. */
const resentWhenInterrupted: ReadonlySet<string> = new Set(["notify"]);

/** A claim left by a process that died before it recorded whether the action happened. */
function interrupted(
  existing: OutboxEntry,
  kind: string,
  pid: number,
  isAlive: (pid: number) => boolean,
): boolean {
  if (!resentWhenInterrupted.has(kind) || existing.sentAt || existing.state !== "claimed") {
    return false;
  }
  return existing.pid !== pid && !isAlive(existing.pid);
}

/** The outbox scope of a heartbeat: its oldest event (stable while the batch is re-delivered). */
export function heartbeatScope(firstEventId: number | undefined, runId: number): string {
  return firstEventId === undefined ? `heartbeat:run:${runId}` : `heartbeat:event:${firstEventId}`;
}

/** The outbox scope of a task run: the due time it runs for (a manual run: its run id). */
export function taskScope(taskId: number, dueAt: string | undefined, runId: number): string {
  return dueAt ? `task:${taskId}:due:${dueAt}` : `task:${taskId}:run:${runId}`;
}
