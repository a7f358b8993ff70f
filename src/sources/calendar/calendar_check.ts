/**
 * Calendar reminders (a tick job): each calendar is read every `check_every_minutes` (backing off
 * on failure) for the coming hours; on every tick, an event instance starting within
 * `remind_minutes_before` becomes one heartbeat event, once per instance (kept in SQLite). Between
 * two reads, instances added, moved or cancelled in the coming week become events too.
 */
import type { CalendarOccurrence } from "../../core/source_ports.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import { describeOccurrence } from "./calendar_text.ts";
import {
  calendarChanges,
  type CalendarSnapshot,
  parseSnapshot,
  snapshotOf,
} from "./calendar_changes.ts";

/** How far ahead changes (new, moved, cancelled instances) are noticed. */
const changeWindowMinutes = 7 * 24 * 60;
/** Change events queued per read at most; the rest become one "and N more" event. */
const maxChangeEvents = 10;

/** The part of the reader the check uses. */
export interface OccurrenceReader {
  calendars(): string[];
  occurrencesOf(
    calendar: string,
    from: Date,
    to: Date,
    signal?: AbortSignal,
  ): Promise<CalendarOccurrence[]>;
}

/** What the calendar check needs. */
interface CalendarCheckDependencies extends CheckDependencies {
  reader: OccurrenceReader;
  everyMinutes: number;
  remindMinutesBefore: number;
  timeZone?: string;
}

/** Source name of a calendar in health rows and events. */
export function calendarSourceName(calendar: string): string {
  return `calendar ${calendar}`;
}

/** The calendar tick job. */
export class CalendarCheck {
  readonly name = "calendar";
  /** The upcoming instances of each calendar, as last read. */
  readonly #upcoming = new Map<string, CalendarOccurrence[]>();
  constructor(private readonly deps: CalendarCheckDependencies) {}

  /** Reads due calendars, then queues the reminders that are due (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    for (const calendar of this.deps.reader.calendars()) {
      if (signal.aborted) return;
      if (isDue(this.deps.store, calendarSourceName(calendar), now)) {
        await this.refresh(calendar, now, signal);
      }
    }
    this.remind(this.deps.clock.now());
  }

  /** Reads one calendar's instances for the look-ahead window; false when it failed. */
  async refresh(calendar: string, now: Date, signal?: AbortSignal): Promise<boolean> {
    const { deps } = this;
    const source = calendarSourceName(calendar);
    // A week ahead for changes, and at least long enough that a reminder due before the next
    // read is already known.
    const lookAheadMinutes = Math.max(
      deps.remindMinutesBefore + 2 * deps.everyMinutes + 60,
      changeWindowMinutes,
    );
    try {
      const until = new Date(now.getTime() + lookAheadMinutes * 60_000);
      const found = await deps.reader.occurrencesOf(calendar, now, until, signal);
      this.#upcoming.set(calendar, found.filter((occurrence) => !occurrence.allDay));
      const at = deps.clock.now();
      const before = parseSnapshot(deps.store.health(source)?.cursor);
      const after = snapshotOf(found, until);
      deps.transaction(() => {
        if (before && after) this.#queueChanges(calendar, before, after, now);
        deps.store.recordSuccess(
          source,
          at,
          new Date(at.getTime() + deps.everyMinutes * 60_000),
          after ? JSON.stringify(after) : "",
        );
      });
      return true;
    } catch (error) {
      recordCheckFailure(deps, source, deps.everyMinutes, (error as Error).message);
      return false;
    }
  }

  #queueChanges(calendar: string, before: CalendarSnapshot, after: CalendarSnapshot, now: Date) {
    const { deps } = this;
    const changes = calendarChanges(calendar, before, after, now);
    for (const change of changes.slice(0, maxChangeEvents)) {
      const line = change.kind === "added"
        ? `new: ${describeOccurrence(change.now, deps.timeZone)}`
        : change.kind === "moved"
        ? `moved: ${describeOccurrence(change.now, deps.timeZone)} (was ${
          describeOccurrence(change.before, deps.timeZone)
        })`
        : `cancelled: ${describeOccurrence(change.before, deps.timeZone)}`;
      const occurrence = change.kind === "cancelled" ? change.before : change.now;
      deps.queue.enqueue({
        source: calendarSourceName(calendar),
        kind: "calendar_changed",
        summary: line,
        dedupeKey: `calendar-change:${calendar}:${change.kind}:${occurrence.uid}:` +
          occurrence.start.toISOString(),
      }, now);
    }
    if (changes.length > maxChangeEvents) {
      deps.queue.enqueue({
        source: calendarSourceName(calendar),
        kind: "calendar_changed",
        summary: `and ${changes.length - maxChangeEvents} more changes in the coming week`,
      }, now);
    }
  }

  /** Queues reminders for instances starting within the reminder window; returns how many. */
  remind(now: Date): number {
    const { deps } = this;
    const windowMs = deps.remindMinutesBefore * 60_000;
    let queued = 0;
    deps.transaction(() => {
      for (const [calendar, occurrences] of this.#upcoming) {
        for (const occurrence of occurrences) {
          const untilStart = occurrence.start.getTime() - now.getTime();
          if (untilStart < 0 || untilStart > windowMs) continue;
          if (!deps.store.markReminded(calendar, occurrence.uid, occurrence.start, now)) continue;
          const minutes = Math.round(untilStart / 60_000);
          deps.queue.enqueue({
            source: calendarSourceName(calendar),
            kind: "calendar_reminder",
            summary: `${minutes === 0 ? "now" : `in ${minutes} min`}: ` +
              describeOccurrence(occurrence, deps.timeZone),
            dedupeKey: `calendar:${calendar}:${occurrence.uid}:${occurrence.start.toISOString()}`,
          }, now);
          queued++;
        }
      }
      deps.store.pruneReminders(now);
    });
    return queued;
  }
}
