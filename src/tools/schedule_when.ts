/**
 * What the user's "when" means: a cron expression or "every 2h" as given, a recurrence in plain
 * words (src/core/schedule_words.ts), or a one-shot date read by chrono-node ("tomorrow at 8",
 * "in two hours") in the configured time zone. Anything else asks the model to ask the user.
 */
// The English parser only: the package root also loads a dozen other languages (~5 MB).
import { parseDurationMinutes } from "../core/schedule.ts";
import { looksRecurring, parseRecurrence } from "../core/schedule_words.ts";
import type { TaskRequest } from "../core/schedule_ports.ts";
import { zonedDateTime } from "../core/zoned_time.ts";

/** A schedule Radar understood: the task port's fields and how Radar reads them back. */
export interface UnderstoodWhen {
  fields: Pick<TaskRequest, "cron" | "every" | "at">;
  /** "every Monday at 09:00", "once on Tue 24 Nov at 08:00". */
  description: string;
}

/** Phrases the model can pass on, shown when a "when" is not understood. */
export const whenExamples =
  '"every Monday at 9am", "tomorrow at 8", "in two hours", "weekdays at 7:30", ' +
  '"every 2 hours on weekdays", "on the 1st of every month at 9"';

const cronField = /^[\d*,\/\-LW#?]+$/i;

/** The zone's offset from UTC in minutes at an instant (what chrono takes as its zone). */
function offsetMinutes(at: Date, timeZone: string): number {
  return Math.round(zonedDateTime(at, timeZone).offsetNanoseconds / 60_000_000_000);
}

/**
 * Reads the user's "when"; an error text (with examples) when Radar cannot. chrono-node (its
 * English parser) is imported on the first one-shot date, not when Radar starts.
 */
export async function understandWhen(
  when: string,
  now: Date,
  timeZone: string,
): Promise<UnderstoodWhen | { error: string }> {
  const text = when.trim();
  const fields = text.split(/\s+/);
  if (fields.length === 5 && fields.every((field) => cronField.test(field))) {
    return { fields: { cron: text }, description: `cron "${text}"` };
  }
  const legacyEvery = /^every\s+(\S+)$/i.exec(text);
  if (legacyEvery && parseDurationMinutes(legacyEvery[1])) {
    return { fields: { every: legacyEvery[1] }, description: `every ${legacyEvery[1]}` };
  }
  const legacyAt = /^(?:at\s+)?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2})$/i.exec(text);
  if (legacyAt) return { fields: { at: legacyAt[1] }, description: "once" };
  const recurrence = parseRecurrence(text);
  if (recurrence) {
    const fields = recurrence.kind === "cron"
      ? { cron: recurrence.cron }
      : { every: recurrence.every };
    return { fields, description: recurrence.description };
  }
  if (looksRecurring(text)) return { error: notUnderstood(text) };
  const chrono = await import("chrono-node/en");
  const [found] = chrono.parse(
    text,
    { instant: now, timezone: offsetMinutes(now, timeZone) },
    { forwardDate: true },
  );
  if (found && (found.start.isCertain("day") || found.start.isCertain("hour"))) {
    const start = found.start;
    const two = (value: number) => String(value).padStart(2, "0");
    const at = `${start.get("year")}-${two(start.get("month")!)}-${two(start.get("day")!)} ${
      two(start.get("hour")!)
    }:${two(start.get("minute")!)}`;
    return { fields: { at }, description: "once" };
  }
  return { error: notUnderstood(text) };
}

function notUnderstood(text: string): string {
  return `Radar could not read "${text}" as a time. Ask the user when, or pass their words ` +
    `as they said them, e.g. ${whenExamples}.`;
}
