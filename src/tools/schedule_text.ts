/** Shared by the task and monitor tools: one-line descriptions and the heartbeat rule. */
import type { MonitorInfo, TaskInfo } from "../core/schedule_ports.ts";
import { formatDurationMinutes } from "../core/schedule.ts";
import { describeNextRun, describeSchedule } from "../core/schedule_words.ts";
import { refused, type ToolContext, type ToolResult } from "../core/tool.ts";

/** Smallest interval the model may schedule: every run of a task is a model call. */
export const minimumToolIntervalMinutes = 15;

/**
 * Schedules change only when a person asked: a heartbeat's input is event text (web pages,
 * file names), which must not be able to plant recurring work.
 */
export function refuseOnHeartbeat(context: ToolContext, action: string): ToolResult | undefined {
  if (context.kind !== "heartbeat") return undefined;
  return refused(`Cannot ${action} during a heartbeat: ask the user to do it in chat.`);
}

/** One line about a task, times in `timeZone`. */
export function describeTaskInfo(task: TaskInfo, timeZone?: string): string {
  return `#${task.id} ${task.name} — ${describeSchedule(task, timeZone)}; ${
    describeNextRun(task, timeZone)
  }: ${task.message.slice(0, 200)}`;
}

/** One line about a monitor. */
export function describeMonitorInfo(monitor: MonitorInfo): string {
  const part = monitor.selector ? ` (${monitor.selector})` : "";
  const state = !monitor.enabled
    ? "paused"
    : monitor.failures
    ? `${monitor.failures} failed checks`
    : monitor.lastResult ?? "not checked yet";
  return `#${monitor.id} ${monitor.name} — ${monitor.url}${part} every ${
    formatDurationMinutes(monitor.everyMinutes)
  }; ${state}`;
}
