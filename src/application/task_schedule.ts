/** Task schedules in local time: cron expressions and one-shots through croner, intervals. */
import { Cron } from "croner";
import { parseDurationMinutes } from "../core/schedule.ts";
import { maxAtAheadMs } from "../core/bounds.ts";
import type { ScheduleKind } from "../core/schedule_ports.ts";

/** A schedule as the user wrote it, normalised for storage. */
export interface ParsedSchedule {
  kind: ScheduleKind;
  /** Stored form: the cron expression, minutes, or an ISO instant. */
  schedule: string;
  /** Human-readable form. */
  description: string;
}

/** Parses one of: a cron expression, `every` ("2h"), or `at` ("2026-12-01 09:00", local). */
export function parseSchedule(
  input: { cron?: string; every?: string; at?: string },
  now: Date,
  timeZone?: string,
): ParsedSchedule | { error: string } {
  const given = [input.cron, input.every, input.at].filter((value) => value !== undefined);
  if (given.length !== 1) {
    return { error: "give exactly one of a cron expression, --every or --at" };
  }
  if (input.every !== undefined) {
    const minutes = parseDurationMinutes(input.every);
    if (!minutes) return { error: `--every must look like 30m, 2h or 1d, not "${input.every}"` };
    return { kind: "every", schedule: String(minutes), description: `every ${input.every}` };
  }
  if (input.at !== undefined) {
    const text = input.at.trim().replace(" ", "T");
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) {
      return { error: `--at must look like "2026-12-01 09:00" (local time), not "${input.at}"` };
    }
    try {
      const when = new Cron(text.length === 16 ? `${text}:00` : text, { timezone: timeZone })
        .nextRun(new Date(now.getTime() - 1));
      if (!when || when <= now) return { error: `--at ${input.at} is in the past` };
      if (when.getTime() - now.getTime() > maxAtAheadMs) {
        return { error: `--at must be within ten years, not "${input.at}"` };
      }
      return { kind: "at", schedule: when.toISOString(), description: `once at ${input.at}` };
    } catch (error) {
      return { error: `--at ${input.at}: ${(error as Error).message}` };
    }
  }
  const expression = input.cron!.trim();
  if (expression.split(/\s+/).length !== 5) {
    return {
      error: `"${expression}" is not a five-field cron expression (minute hour day month weekday)`,
    };
  }
  try {
    new Cron(expression, { timezone: timeZone, paused: true });
  } catch (error) {
    return { error: `"${expression}" is not a valid cron expression: ${(error as Error).message}` };
  }
  return { kind: "cron", schedule: expression, description: `cron "${expression}"` };
}

/**
 * The first run strictly after `after`; undefined for a one-shot already past. An interval runs
 * on its own grid: given `anchor` (a due time of the schedule, the one just run), the next run is
 * the first `anchor + k × interval` after `after`, so a late tick, a long run or a restart never
 * moves the runs that follow; without one (a new or resumed task) it is `after + interval`.
 */
export function nextRunAfter(
  task: { scheduleKind: ScheduleKind; schedule: string },
  after: Date,
  timeZone?: string,
  anchor?: Date,
): Date | undefined {
  if (task.scheduleKind === "every") {
    const interval = Number(task.schedule) * 60_000;
    if (!anchor || !(interval > 0) || Number.isNaN(anchor.getTime())) {
      return new Date(after.getTime() + interval);
    }
    const behind = after.getTime() - anchor.getTime();
    if (behind < 0) return anchor;
    return new Date(anchor.getTime() + (Math.floor(behind / interval) + 1) * interval);
  }
  if (task.scheduleKind === "at") {
    const when = new Date(task.schedule);
    return when > after ? when : undefined;
  }
  return new Cron(task.schedule, { timezone: timeZone, paused: true }).nextRun(after) ?? undefined;
}

/** Runs looked at for the shortest gap, and how far ahead (a leap day's runs come every 4 years). */
const gapRunLimit = 1500;
const gapHorizonMs = 8 * 366 * 24 * 60 * 60_000;

/**
 * The shortest gap in minutes between consecutive runs from `first` on: every gap, not only the
 * first (`0,14 * * * *` first waits 46 minutes, then runs 14 apart). Cron schedules are walked run
 * by run over 8 years or 1,500 runs, whichever ends first (a cron expression has one set of minutes
 * for every hour and one of hours for every day, so its short gaps show within a day or two);
 * Infinity for a schedule that runs once.
 */
export function shortestGapMinutes(
  task: { scheduleKind: ScheduleKind; schedule: string },
  first: Date,
  timeZone?: string,
): number {
  if (task.scheduleKind === "every") return Number(task.schedule);
  if (task.scheduleKind === "at") return Infinity;
  const cron = new Cron(task.schedule, { timezone: timeZone, paused: true });
  const end = first.getTime() + gapHorizonMs;
  let shortest = Infinity;
  let previous = first;
  for (let index = 0; index < gapRunLimit; index++) {
    const next = cron.nextRun(previous);
    if (!next || next.getTime() > end) break;
    shortest = Math.min(shortest, (next.getTime() - previous.getTime()) / 60_000);
    previous = next;
  }
  return shortest;
}
