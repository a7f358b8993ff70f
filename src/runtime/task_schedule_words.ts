/**
 * A person's "when" for a new task (`radar task add`, the dashboard's "Add a task" form), read by
 * the one schedule parser the model's schedule_task uses (src/tools/schedule_when.ts): a cron
 * expression, "every 2h", "at 2026-12-01 09:00", or words ("every Monday at 9am", "tomorrow at 8")
 * in `timeZone`.
 */
import type { TaskRequest } from "../core/schedule_ports.ts";
import { understandWhen, whenExamples } from "../tools/schedule_when.ts";

/** A schedule read from a person's words: the task fields and the phrase to show back. */
export interface TaskScheduleWords {
  fields: Pick<TaskRequest, "cron" | "every" | "at">;
  /** "every Monday at 09:00" (none for a one-off time or a schedule given as stored). */
  phrase?: string;
}

/** Reads `when`; the error is one line naming the forms Radar reads. */
export async function readTaskSchedule(
  when: string,
  now: Date,
  timeZone: string,
): Promise<TaskScheduleWords | { error: string }> {
  const understood = await understandWhen(when, now, timeZone);
  if ("error" in understood) {
    return {
      error: `"${when.trim().slice(0, 100)}" is not a schedule Radar reads; give a cron ` +
        `expression ("0 9 * * 1") or words such as ${whenExamples}`,
    };
  }
  const phrase = understood.description === "once" ? undefined : understood.description;
  return { fields: understood.fields, phrase };
}
