/**
 * What changed in a calendar between two reads: instances added, moved or cancelled within the
 * window both reads covered (instances that only slid into view are not changes).
 */
import type { CalendarOccurrence } from "../../core/source_ports.ts";

/** A read, compactly: instance key → what is needed to describe it later. */
export interface CalendarSnapshot {
  until: string;
  items: Record<string, { title: string; start: string; end: string; allDay: boolean }>;
}

/** One change, with the occurrences to describe it. */
export type CalendarChange =
  | { kind: "added"; now: CalendarOccurrence }
  | { kind: "moved"; before: CalendarOccurrence; now: CalendarOccurrence }
  | { kind: "cancelled"; before: CalendarOccurrence };

/** Snapshots larger than this are not kept (no change detection for huge calendars). */
const maxSnapshotItems = 500;

function keyOf(occurrence: CalendarOccurrence): string {
  return `${occurrence.uid}|${occurrence.start.toISOString()}`;
}

/** The snapshot of `occurrences` read up to `until` (undefined when too large to keep). */
export function snapshotOf(
  occurrences: readonly CalendarOccurrence[],
  until: Date,
): CalendarSnapshot | undefined {
  if (occurrences.length > maxSnapshotItems) return undefined;
  const items: CalendarSnapshot["items"] = {};
  for (const occurrence of occurrences) {
    items[keyOf(occurrence)] = {
      title: occurrence.title,
      start: occurrence.start.toISOString(),
      end: occurrence.end.toISOString(),
      allDay: occurrence.allDay,
    };
  }
  return { until: until.toISOString(), items };
}

/** Parses a stored snapshot; undefined when absent or damaged. */
export function parseSnapshot(text: string | undefined): CalendarSnapshot | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value?.until === "string" && value.items && typeof value.items === "object"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** The changes from `before` to `after` in [now, the earlier of both ends). */
export function calendarChanges(
  calendar: string,
  before: CalendarSnapshot,
  after: CalendarSnapshot,
  now: Date,
): CalendarChange[] {
  const end = Math.min(Date.parse(before.until), Date.parse(after.until));
  const inWindow = (snapshot: CalendarSnapshot) =>
    new Map(
      Object.entries(snapshot.items)
        .filter(([, item]) => {
          const start = Date.parse(item.start);
          return start >= now.getTime() && start < end;
        })
        .map(([key, item]) => [key, toOccurrence(calendar, key, item)]),
    );
  const old = inWindow(before);
  const current = inWindow(after);
  const added = [...current].filter(([key]) => !old.has(key)).map(([, value]) => value);
  const removed = [...old].filter(([key]) => !current.has(key)).map(([, value]) => value);
  const changes: CalendarChange[] = [];
  for (const occurrence of added) {
    const index = removed.findIndex((candidate) => candidate.uid === occurrence.uid);
    if (index >= 0) {
      changes.push({ kind: "moved", before: removed[index], now: occurrence });
      removed.splice(index, 1);
    } else changes.push({ kind: "added", now: occurrence });
  }
  for (const occurrence of removed) changes.push({ kind: "cancelled", before: occurrence });
  return changes;
}

function toOccurrence(
  calendar: string,
  key: string,
  item: CalendarSnapshot["items"][string],
): CalendarOccurrence {
  return {
    calendar,
    uid: key.slice(0, key.lastIndexOf("|")),
    title: item.title,
    start: new Date(item.start),
    end: new Date(item.end),
    allDay: item.allDay,
  };
}
