/** Quiet hours in local time, possibly spanning midnight ("23:00" to "07:00"). */
import { zonedParts } from "./zoned_time.ts";

/** A quiet-hours window as configured (HH:MM, 24-hour, local time); null means none. */
export type QuietHours = { start: string; end: string } | null;

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return hours * 60 + minutes;
}

/** Minutes since local midnight of `at` in `timeZone` (undefined: the system's zone). */
function localMinutes(at: Date, timeZone?: string): number {
  const { hour, minute } = zonedParts(at, timeZone);
  return hour * 60 + minute;
}

/** True when `at` falls inside the window; start is inclusive, end exclusive. */
export function isQuietTime(quiet: QuietHours, at: Date, timeZone?: string): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const now = localMinutes(at, timeZone);
  return start < end ? now >= start && now < end : now >= start || now < end;
}
