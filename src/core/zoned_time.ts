/**
 * The one place an instant becomes what a person reads, and wall-clock time becomes an instant:
 * in an IANA time zone (`radar.timezone`), the machine's when none is configured. Built on
 * Temporal, which needs no ICU: the first Intl.DateTimeFormat of a process costs 15–30 ms, and
 * these run before the first model request (the stamp of every user turn). English names only.
 * A zone is labelled by its offset ("UTC+01:00", "UTC"), which no reader can misread.
 *
 * Time arithmetic that cannot throw. A row already in the database may hold a duration no Date
 * can represent (`--every 99999999999d` was once accepted); `toISOString()` of such a date throws
 * a RangeError, which used to stop every later monitor on every tick.
 */

const weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The zone a time is shown in: the configured one, else the machine's. */
export function effectiveTimeZone(configured?: string): string {
  return configured || Temporal.Now.timeZoneId();
}

/** True for a zone name Temporal knows ("Europe/Berlin", "UTC"; not "Mars/Olympus"). */
export function isKnownTimeZone(name: string): boolean {
  try {
    Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}

/** `at` on the wall clock of `timeZone` (the machine's zone without one). */
export function zonedDateTime(at: Date, timeZone?: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(at.getTime())
    .toZonedDateTimeISO(effectiveTimeZone(timeZone));
}

/** The wall-clock parts of `at` in `timeZone` (weekday: 1 Monday … 7 Sunday). */
export function zonedParts(at: Date, timeZone?: string) {
  const zoned = zonedDateTime(at, timeZone);
  return {
    year: zoned.year,
    month: zoned.month,
    day: zoned.day,
    hour: zoned.hour,
    minute: zoned.minute,
    second: zoned.second,
    weekday: zoned.dayOfWeek,
  };
}

/**
 * The instant whose wall-clock time in `timeZone` is the given one (a time skipped by a DST change
 * moves forward, a repeated one takes the earlier). Undefined for a date that does not exist.
 */
export function zonedTimeToUtc(
  wall: {
    year: number;
    month: number;
    day: number;
    hour?: number;
    minute?: number;
    second?: number;
  },
  timeZone?: string,
): Date | undefined {
  try {
    const zoned = Temporal.ZonedDateTime.from(
      {
        ...wall,
        hour: wall.hour ?? 0,
        minute: wall.minute ?? 0,
        second: wall.second ?? 0,
        timeZone: effectiveTimeZone(timeZone),
      },
      { overflow: "reject", disambiguation: "compatible" },
    );
    return new Date(zoned.epochMilliseconds);
  } catch {
    return undefined;
  }
}

/** Midnight starting the day of `at` in `timeZone`, plus `days` days. */
export function startOfZonedDay(at: Date, timeZone: string | undefined, days = 0): Date {
  const zone = effectiveTimeZone(timeZone);
  const day = zonedDateTime(at, zone).toPlainDate().add({ days });
  return new Date(day.toZonedDateTime({ timeZone: zone }).epochMilliseconds);
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
  return zonedTimeToUtc({ year, month, day, hour, minute }, timeZone);
}

const two = (value: number) => String(value).padStart(2, "0");

/** "UTC" or "UTC+01:00": the zone's offset at that moment. */
function offsetLabel(zoned: Temporal.ZonedDateTime): string {
  return zoned.offset === "+00:00" ? "UTC" : `UTC${zoned.offset}`;
}

/** "14:30". */
function clock(zoned: Temporal.ZonedDateTime): string {
  return `${two(zoned.hour)}:${two(zoned.minute)}`;
}

/** "Monday, 23 Nov 2026, 10:05 UTC+01:00": the stamp of a user turn and the heartbeat's "now". */
export function formatLocalTime(at: Date, timeZone?: string): string {
  const zoned = zonedDateTime(at, timeZone);
  return `${weekdays[zoned.dayOfWeek - 1]}, ${zoned.day} ${months[zoned.month - 1]} ` +
    `${zoned.year}, ${clock(zoned)} ${offsetLabel(zoned)}`;
}

/** "Tue 24 Nov". */
export function formatDay(at: Date, timeZone?: string): string {
  const zoned = zonedDateTime(at, timeZone);
  return `${weekdays[zoned.dayOfWeek - 1].slice(0, 3)} ${zoned.day} ${months[zoned.month - 1]}`;
}

/** "14:30" in the zone (with `seconds`: "14:30:05"). */
export function formatClock(
  at: Date,
  timeZone?: string,
  options: { seconds?: boolean } = {},
): string {
  const zoned = zonedDateTime(at, timeZone);
  return options.seconds ? `${clock(zoned)}:${two(zoned.second)}` : clock(zoned);
}

/** "Tue 24 Nov 14:30". */
export function formatDayTime(at: Date, timeZone?: string): string {
  return `${formatDay(at, timeZone)} ${formatClock(at, timeZone)}`;
}

/** "2026-11-24". */
export function formatDate(at: Date, timeZone?: string): string {
  return zonedDateTime(at, timeZone).toPlainDate().toString();
}

/**
 * "2026-11-24 14:30" (with `seconds`: "2026-11-24 14:30:05"; with `zone`: "2026-11-24 14:30
 * UTC+01:00", for lines a reader could take for another zone's time).
 */
export function formatDateTime(
  at: Date,
  timeZone?: string,
  options: { seconds?: boolean; zone?: boolean } = {},
): string {
  const zoned = zonedDateTime(at, timeZone);
  const time = options.seconds ? `${clock(zoned)}:${two(zoned.second)}` : clock(zoned);
  const zone = options.zone ? ` ${offsetLabel(zoned)}` : "";
  return `${zoned.toPlainDate().toString()} ${time}${zone}`;
}

/**
 * A stored ISO time ("2026-11-23T23:30:00.000Z") as `formatDateTime` shows it in `timeZone`; a
 * stored text that is not a time is shown as stored, cut to 40 characters.
 */
export function formatStoredTime(
  iso: string,
  timeZone?: string,
  options: { seconds?: boolean; zone?: boolean } = {},
): string {
  const at = new Date(iso);
  return isNaN(at.getTime()) ? iso.slice(0, 40) : formatDateTime(at, timeZone, options);
}

/** "Europe/Berlin (UTC+01:00)": the zone times are shown in and its offset at `at`. */
export function describeTimeZone(at: Date, timeZone?: string): string {
  const zoned = zonedDateTime(at, timeZone);
  const label = offsetLabel(zoned);
  return zoned.timeZoneId === label ? label : `${zoned.timeZoneId} (${label})`;
}

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
