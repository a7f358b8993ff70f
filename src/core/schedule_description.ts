/**
 * How Radar writes a task's schedule back to a person: one renderer for `radar task` and
 * `radar status`, the schedule tools' results and the dashboard's task table. Times are wall-clock
 * times in the configured zone (the machine's when none is set).
 */
import { formatDurationMinutes } from "./schedule.ts";
import type { TaskRecord } from "./schedule_ports.ts";

/** The fields of a task the schedule renderer reads. */
export type ScheduledTask = Pick<TaskRecord, "scheduleKind" | "schedule">;

/** The time zone schedules run in: the configured one, else the machine's. */
export function effectiveTimeZone(configured?: string): string {
  return configured || new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** "Mon 30 Nov 09:00" in the zone ("Mon 30 Nov 2026 09:00" with the year). */
export function formatWhen(at: Date, timeZone?: string, withYear = false): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: withYear ? "numeric" : undefined,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at).replaceAll(",", "");
}

/** The schedule as stored, for a person: `cron "0 9 * * 1"`, `every 2h`, `once Tue 1 Dec 2026 09:00`. */
export function describeSchedule(task: ScheduledTask, timeZone?: string): string {
  if (task.scheduleKind === "every") {
    return `every ${formatDurationMinutes(Number(task.schedule))}`;
  }
  if (task.scheduleKind === "at") {
    return `once ${formatWhen(new Date(task.schedule), timeZone, true)}`;
  }
  return `cron "${task.schedule}"`;
}

/** "next Mon 30 Nov 09:00", or "disabled" for a paused or spent task. */
export function describeNextRun(
  task: Pick<TaskRecord, "enabled" | "nextRunAt">,
  timeZone?: string,
): string {
  return task.enabled && task.nextRunAt
    ? `next ${formatWhen(new Date(task.nextRunAt), timeZone)}`
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
