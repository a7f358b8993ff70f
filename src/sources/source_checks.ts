/** What the email and calendar checks share: the schedule with backoff and the failure record. */
import type { Clock, Logger } from "../core/ports.ts";
import { backoffMinutes, failingThreshold } from "../core/schedule.ts";
import type { SourceStore, SourceStores } from "./source_stores.ts";
import type { NewEvent, Transaction } from "../core/work_ports.ts";

/** The queue as the checks use it. */
export interface EventSink {
  enqueue(event: NewEvent, at: Date): number | undefined;
}

/** What every check needs. */
export interface CheckDependencies {
  /** One transaction over the store and the queue. */
  transaction: Transaction;
  store: SourceStore;
  queue: EventSink;
  clock: Clock;
  logger: Logger;
}

/** A check's dependencies out of the daemon's parts (the health store, its transaction). */
export function checkDependencies(parts: {
  stores: Pick<SourceStores, "transaction" | "health">;
  queue: EventSink;
  clock: Clock;
  logger: Logger;
}): CheckDependencies {
  const { stores, queue, clock, logger } = parts;
  return { transaction: stores.transaction, store: stores.health, queue, clock, logger };
}

/** Whether `source` is due at `now` (never checked, or its next check has come). */
export function isDue(store: SourceStore, source: string, now: Date): boolean {
  const next = store.health(source)?.nextCheckAt;
  return !next || new Date(next).getTime() <= now.getTime();
}

/**
 * Records a failed check with exponential backoff; logs the first failure and queues one
 * "failing" event when the failures reach the threshold (not again until it recovers).
 */
export function recordCheckFailure(
  deps: CheckDependencies,
  source: string,
  everyMinutes: number,
  message: string,
): number {
  const at = deps.clock.now();
  const failures = deps.store.recordFailure(
    source,
    at,
    message,
    (count) => new Date(at.getTime() + backoffMinutes(everyMinutes, count) * 60_000),
  );
  if (failures === 1) deps.logger.warn("source check failed", { source, error: message });
  if (failures === failingThreshold) {
    deps.queue.enqueue({
      source,
      kind: "source_failing",
      summary: `${source} has failed ${failures} checks in a row: ${message}`,
      dedupeKey: `failing:${source}`,
    }, at);
  }
  return failures;
}
