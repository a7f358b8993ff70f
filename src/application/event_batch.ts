/**
 * The events one heartbeat takes. Up to `max_events_per_tick` events are shown to the model; a
 * folder watcher's files beyond the few listed per folder ride along in the same batch and are
 * summarised ("… and N more from watcher ~/Downloads"), so a burst of 20,000 files is worked off
 * in a few dozen bounded heartbeats instead of hundreds. Order is kept: the batch is a prefix of
 * the queue, so nothing starves.
 */
import { defaultMessageBounds, type PendingEvent } from "../core/heartbeat.ts";

/** Events fetched per heartbeat at most (shown plus summarised). */
export const maxBatchEvents = 1_000;

/** True for events of a folder watcher (summarised per folder beyond the first few). */
function isFileEvent(event: PendingEvent): boolean {
  return event.source.startsWith("watcher ");
}

/**
 * The prefix of `pending` (oldest first) one heartbeat consumes: every event that will be shown
 * counts against `shownLimit`; file events past `perSource` per folder only against `maxBatch`.
 */
export function selectBatch(
  pending: readonly PendingEvent[],
  shownLimit: number,
  perSource: number = defaultMessageBounds.perSource,
  maxBatch: number = maxBatchEvents,
): PendingEvent[] {
  const batch: PendingEvent[] = [];
  const perFolder = new Map<string, number>();
  let shown = 0;
  for (const event of pending) {
    if (batch.length >= maxBatch) break;
    const count = perFolder.get(event.source) ?? 0;
    const summarised = isFileEvent(event) && count >= perSource;
    if (!summarised) {
      if (shown >= shownLimit) break;
      shown++;
    }
    perFolder.set(event.source, count + 1);
    batch.push(event);
  }
  return batch;
}
