/** Wall-clock times in an IANA time zone (or the system's when none is given), via Intl. */

/** The wall-clock parts of `at` in `timeZone`. */
export function zonedParts(at: Date, timeZone?: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: value("year"),
    month: value("month"),
    day: value("day"),
    hour: value("hour"),
    minute: value("minute"),
    second: value("second"),
  };
}

/** The instant whose wall-clock time in `timeZone` is the given one (DST gaps move forward). */
export function zonedTimeToUtc(
  wall: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone?: string,
): Date {
  const target = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour ?? 0, wall.minute ?? 0);
  let guess = target;
  for (let round = 0; round < 3; round++) {
    const seen = zonedParts(new Date(guess), timeZone);
    const seenAsUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    const difference = target - seenAsUtc;
    if (difference === 0) break;
    guess += difference;
  }
  return new Date(guess);
}

/** Midnight starting the day of `at` in `timeZone`, plus `days` days. */
export function startOfZonedDay(at: Date, timeZone: string | undefined, days = 0): Date {
  const today = zonedParts(at, timeZone);
  const shifted = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
  return zonedTimeToUtc({
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  }, timeZone);
}

/**
 * Parses "2026-11-25 09:30", "2026-11-25T09:30" or "2026-11-25" as wall time in `timeZone`;
 * a string with Z or an offset is taken as is. Undefined when it is not a date.
 */
export function parseZonedTime(text: string, timeZone?: string): Date | undefined {
  const trimmed = text.trim();
  if (/(Z|[+-]\d\d:?\d\d)$/i.test(trimmed) && /^\d{4}-\d\d-\d\dT/.test(trimmed)) {
    const instant = new Date(trimmed);
    return isNaN(instant.getTime()) ? undefined : instant;
  }
  const match = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d))?$/.exec(trimmed);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  return zonedTimeToUtc({ year, month, day, hour, minute }, timeZone);
}
