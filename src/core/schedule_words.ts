/**
 * Schedules in words, both ways: what a person writes, read into a schedule, and a stored schedule
 * written back to a person.
 *
 * Recurring schedules in plain words → croner-compatible cron or an interval, table-driven:
 * "every Monday at 9am", "weekdays at 7:30", "every 2 hours on weekdays", "on the 1st of every
 * month". Small models write cron wrong; Radar reads the user's words itself.
 *
 * How Radar writes a task's schedule back to a person: one renderer for `radar task` and
 * `radar status`, the schedule tools' results and the dashboard's task table. Times are wall-clock
 * times in the configured zone (the machine's when none is set), through src/core/zoned_time.ts.
 */
import { formatDurationMinutes } from "./schedule.ts";
import type { TaskRecord } from "./schedule_ports.ts";
import { formatClock, formatDay, formatDayTime, zonedDateTime } from "./zoned_time.ts";

/** A recurrence Radar understood, with how it reads it back. */
export type Recurrence =
  | { kind: "cron"; cron: string; description: string }
  | { kind: "every"; every: string; description: string };

const dayTitles = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
/** "sun" → 0 … "sat" → 6 (cron's day-of-week numbers). */
const dayNumbers: Record<string, number> = Object.fromEntries(
  dayTitles.map((title, day) => [title.slice(0, 3).toLowerCase(), day]),
);

/** Day groups: pattern → cron day-of-week field and words. */
const dayGroups: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/\b(week ?days?|workdays?|work days?|monday (?:to|through|-) friday)\b/, "1-5", "weekday"],
  [/\bweekends?\b/, "0,6", "weekend day"],
];

/** Parts of the day → hour, when no clock time is given. */
const dayParts: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bmidnight\b/, 0],
  [/\bmornings?\b/, 8],
  [/\b(noon|midday|lunch ?time)\b/, 12],
  [/\bafternoons?\b/, 15],
  [/\bevenings?\b/, 18],
  [/\b(nights?|nightly)\b/, 21],
];

const numberWords: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  eight: 8,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

const ordinalWords: Record<string, number> = { first: 1, second: 2, third: 3, last: -1 };

const recurring =
  /\b(every|each|daily|weekly|monthly|hourly|nightly|week ?days|weekends|workdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days|of the month)\b/;

const two = (value: number) => String(value).padStart(2, "0");

/** Clock times in the text: "at 9", "9am", "7:30", "17:00", "5 pm". */
function clockTimes(text: string): Array<{ hour: number; minute: number }> {
  const times: Array<{ hour: number; minute: number }> = [];
  const pattern = /(\bat\s+)?\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?![\d:])/g;
  for (const match of text.matchAll(pattern)) {
    const [, at, hourText, minuteText, meridiem] = match;
    if (!at && !minuteText && !meridiem) continue;
    let hour = Number(hourText);
    const minute = Number(minuteText ?? 0);
    if (meridiem?.startsWith("p") && hour < 12) hour += 12;
    if (meridiem?.startsWith("a") && hour === 12) hour = 0;
    if (hour > 23 || minute > 59) continue;
    times.push({ hour, minute });
  }
  return times;
}

/** The repeat interval: "every 2 hours", "hourly", "every 30 min", "every half hour". */
function interval(text: string): { amount: number; unit: "m" | "h" | "d" } | undefined {
  if (/\bhourly\b/.test(text)) return { amount: 1, unit: "h" };
  if (/\bevery half(?: an)? hour\b/.test(text)) return { amount: 30, unit: "m" };
  const match = /\bevery\s+(\d+|[a-z]+)?\s*(minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/.exec(text);
  if (!match) return undefined;
  const amount = match[1] === undefined
    ? 1
    : /^\d+$/.test(match[1])
    ? Number(match[1])
    : numberWords[match[1]];
  if (!amount) return undefined;
  return { amount, unit: match[2][0] as "m" | "h" | "d" };
}

/** Day-of-week field and words: weekday groups, or named days ("Mondays and Thursdays"). */
function daysOfWeek(text: string): { field: string; words: string } | undefined {
  for (const [pattern, field, word] of dayGroups) {
    if (pattern.test(text)) return { field, words: `every ${word}` };
  }
  const days = new Set<number>();
  const dayPattern =
    /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tues?|wed|thu(?:rs?)?|fri|sat)s?\b/g;
  for (const match of text.matchAll(dayPattern)) days.add(dayNumbers[match[1].slice(0, 3)]);
  if (!days.size) return undefined;
  const sorted = [...days].sort((a, b) => a - b);
  const names = sorted.map((day) => dayTitles[day]);
  const words = names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return { field: sorted.join(","), words: `every ${words}` };
}

/** Day of the month: "on the 1st of every month", "monthly on the 15th", "last day of the month". */
function dayOfMonth(text: string): { field: string; words: string } | undefined {
  if (!/\b(month|monthly)\b/.test(text)) return undefined;
  const numbered = /\b(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*(?::|am|pm|a\.m|p\.m))/.exec(
    text.replace(/\bat\s+\d{1,2}(:\d{2})?\s*(am|pm)?/g, " "),
  );
  const ordinal = /\b(first|second|third|last)\b(?:\s+day)?/.exec(text);
  const day = numbered ? Number(numbered[1]) : ordinal ? ordinalWords[ordinal[1]] : 1;
  if (day === -1) return { field: "L", words: "on the last day of every month" };
  if (day < 1 || day > 31) return undefined;
  return { field: String(day), words: `on day ${day} of every month` };
}

const unsayablePeriod =
  /\b(fortnights?|fortnightly|years?|yearly|annually|quarters?|quarterly|other|alternate)\b/;

/** Whether the words ask for something repeating ("every", "daily", "on Mondays", …). */
export function looksRecurring(phrase: string): boolean {
  return recurring.test(phrase.toLowerCase());
}

/**
 * Reads a recurrence from plain words; undefined when the text is not a recurrence this table
 * knows (a one-shot like "tomorrow at 8", or something to ask the user about).
 */
export function parseRecurrence(phrase: string): Recurrence | undefined {
  const text = phrase.toLowerCase().replace(/[,;]/g, " ").replace(/\s+/g, " ").trim();
  if (!recurring.test(text)) return undefined;
  // Periods this table cannot say ("every fortnight", "every other Monday", "yearly"): ask the
  // user rather than read them as daily or weekly.
  if (unsayablePeriod.test(text)) return undefined;
  const days = daysOfWeek(text);
  const repeat = interval(text);
  if (repeat && repeat.unit !== "d") {
    const unitWord = repeat.unit === "h" ? "hour" : "minute";
    const every = repeat.amount === 1 ? `every ${unitWord}` : `every ${repeat.amount} ${unitWord}s`;
    if (!days) {
      return { kind: "every", every: `${repeat.amount}${repeat.unit}`, description: every };
    }
    const cron = repeat.unit === "h"
      ? `0 ${repeat.amount === 1 ? "*" : `*/${repeat.amount}`} * * ${days.field}`
      : `*/${repeat.amount} * * * ${days.field}`;
    return { kind: "cron", cron, description: `${every} on ${days.words.replace("every ", "")}s` };
  }
  const times = clockTimes(text);
  if (!times.length) {
    const part = dayParts.find(([pattern]) => pattern.test(text));
    times.push({ hour: part ? part[1] : 9, minute: 0 });
  }
  const minute = times[0].minute;
  if (times.some((time) => time.minute !== minute)) return undefined;
  const hours = [...new Set(times.map((time) => time.hour))].sort((a, b) => a - b);
  const at = hours.map((hour) => `${two(hour)}:${two(minute)}`).join(" and ");
  // At these times on the days `dayFields` (day of month, month, day of week) names.
  const cronAt = (dayFields: string, description: string): Recurrence => ({
    kind: "cron",
    cron: `${minute} ${hours.join(",")} ${dayFields}`,
    description,
  });
  const monthDay = dayOfMonth(text);
  if (!monthDay && /\bmonth/.test(text)) return undefined;
  if (monthDay) return cronAt(`${monthDay.field} * *`, `${monthDay.words} at ${at}`);
  if (repeat?.unit === "d" && repeat.amount > 1) {
    return cronAt(`*/${repeat.amount} * *`, `every ${repeat.amount} days at ${at}`);
  }
  if (days) return cronAt(`* * ${days.field}`, `${days.words} at ${at}`);
  if (/\b(weekly|every week|each week)\b/.test(text)) return undefined;
  return cronAt("* * *", `every day at ${at}`);
}

/** The fields of a task the schedule renderer reads. */
export type ScheduledTask = Pick<TaskRecord, "scheduleKind" | "schedule">;

/** The schedule as stored, for a person: `cron "0 9 * * 1"`, `every 2h`, `once Tue 1 Dec 2026 09:00`. */
export function describeSchedule(task: ScheduledTask, timeZone?: string): string {
  if (task.scheduleKind === "every") {
    return `every ${formatDurationMinutes(Number(task.schedule))}`;
  }
  if (task.scheduleKind === "at") {
    const at = new Date(task.schedule);
    const year = zonedDateTime(at, timeZone).year;
    return `once ${formatDay(at, timeZone)} ${year} ${formatClock(at, timeZone)}`;
  }
  return `cron "${task.schedule}"`;
}

/** "next Mon 30 Nov 09:00", or "disabled" for a paused or spent task. */
export function describeNextRun(
  task: Pick<TaskRecord, "enabled" | "nextRunAt">,
  timeZone?: string,
): string {
  return task.enabled && task.nextRunAt
    ? `next ${formatDayTime(new Date(task.nextRunAt), timeZone)}`
    : "disabled";
}

/**
 * A new task's schedule as Radar understood it: the words it read (`phrase`, "every Monday at
 * 09:00"), the stored schedule and the next run, with the zone:
 * `every Monday at 09:00 (cron "0 9 * * 1"); next Mon 30 Nov 09:00 (Europe/Amsterdam)`.
 */
export function describeNewSchedule(
  task: ScheduledTask & Pick<TaskRecord, "enabled" | "nextRunAt">,
  timeZone: string,
  phrase?: string,
): string {
  const schedule = describeSchedule(task, timeZone);
  if (task.scheduleKind === "at") return `${schedule} (${timeZone})`;
  const read = phrase && phrase !== schedule ? `${phrase} (${schedule})` : schedule;
  return `${read}; ${describeNextRun(task, timeZone)} (${timeZone})`;
}
