/** One line about a scheduled task, for `radar task` and `radar status`. */
import { formatLocalTime, formatStoredTime } from "../../core/zoned_time.ts";
import type { TaskRecord } from "../../core/schedule_ports.ts";
import { TaskService } from "../../application/task_service.ts";

/** One line about a task. */
export function describeTask(task: TaskRecord, timeZone?: string): string {
  const next = task.enabled && task.nextRunAt
    ? `next ${formatLocalTime(new Date(task.nextRunAt), timeZone)}`
    : "disabled";
  const last = task.lastRunAt
    ? `; last ${formatStoredTime(task.lastRunAt, timeZone, { zone: true })} ${task.lastOutcome}`
    : "";
  const personality = task.personality ? `; personality ${task.personality}` : "";
  return `#${task.id} ${task.name} — ${
    TaskService.describe(task, timeZone)
  }; ${next}${last}${personality}`;
}
