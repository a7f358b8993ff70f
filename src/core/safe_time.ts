/**
 * Time arithmetic that cannot throw. A row already in the database may hold a duration no Date
 * can represent (`--every 99999999999d` was once accepted); `toISOString()` of such a date throws
 * a RangeError, which used to stop every later monitor on every tick.
 */

/** The longest delay the daemon schedules (a year): far enough, and always a valid date. */
const maxDelayMinutes = 366 * 24 * 60;

/** `at` plus `minutes`, clamped to [1 minute, a year]; a non-finite delay counts as a year. */
export function laterBy(at: Date, minutes: number): Date {
  const safe = Number.isFinite(minutes)
    ? Math.min(Math.max(minutes, 1), maxDelayMinutes)
    : maxDelayMinutes;
  return new Date(at.getTime() + safe * 60_000);
}

/** True for a Date that `toISOString()` accepts. */
export function isValidDate(date: Date | undefined): date is Date {
  return date !== undefined && Number.isFinite(date.getTime());
}
