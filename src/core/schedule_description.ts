/**
 * How Radar writes a task's schedule back to a person: one renderer for `radar task` and
 * `radar status`, the schedule tools' results and the dashboard's task table. Times are wall-clock
 * times in the configured zone (the machine's when none is set), through src/core/zoned_time.ts.
 */
import { formatDurationMinutes } from "./schedule.ts";
import type { TaskRecord } from "./schedule_ports.ts";
import { formatClock, formatDay, formatDayTime, zonedDateTime } from "./zoned_time.ts";

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
