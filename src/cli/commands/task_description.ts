/** One line about a scheduled task, for `radar task` and `radar status`. */
import { formatStoredTime } from "../../core/zoned_time.ts";
import type { TaskRecord } from "../../core/schedule_ports.ts";
import { describeNextRun, describeSchedule } from "../../core/schedule_words.ts";

/** One line about a task. */
export function describeTask(task: TaskRecord, timeZone?: string): string {
  const last = task.lastRunAt
    ? `; last ${formatStoredTime(task.lastRunAt, timeZone, { zone: true })} ${task.lastOutcome}`
    : "";
  const personality = task.personality ? `; personality ${task.personality}` : "";
  return `#${task.id} ${task.name} — ${describeSchedule(task, timeZone)}; ${
    describeNextRun(task, timeZone)
  }${last}${personality}`;
}
