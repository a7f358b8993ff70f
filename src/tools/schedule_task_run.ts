/** `schedule_task`'s run (src/tools/schedule_task.ts), loaded with the tool's first call. */
import { failed, type ToolContext, type ToolOutput } from "../core/tool.ts";
import type { TaskInfo, TaskScheduler } from "../core/schedule_ports.ts";
import { minimumToolIntervalMinutes, refuseOnHeartbeat } from "./schedule_text.ts";
import { understandWhen } from "./schedule_when.ts";
import { describeNewSchedule } from "../core/schedule_words.ts";
import { effectiveTimeZone } from "../core/zoned_time.ts";

/** schedule_task's run: the schedule understood, then the task added (unapproved). */
export function scheduleTaskRun(
  deps: { tasks: TaskScheduler; timeZone?: string; now?: () => Date },
): (args: { message: string; when: string }, context: ToolContext) => Promise<ToolOutput> {
  // Resolved at the first call: the machine's zone costs ~20 ms of ICU set-up at start.
  let zone: string | undefined;
  const timeZoneNow = () => zone ??= effectiveTimeZone(deps.timeZone);
  return async ({ message, when }, context) => {
    const blocked = refuseOnHeartbeat(context, "schedule tasks");
    if (blocked) return blocked;
    const now = deps.now?.() ?? new Date();
    const timeZone = timeZoneNow();
    const understood = await understandWhen(when, now, timeZone);
    if ("error" in understood) return failed(understood.error);
    const added = await deps.tasks.add({
      message,
      ...understood.fields,
      minIntervalMinutes: minimumToolIntervalMinutes,
      origin: "model",
    });
    if ("error" in added) return failed(`Cannot schedule: ${added.error}.`);
    // The task runs with read-only tools and notify until the user runs radar task approve.
    return scheduledText(added, understood.description, timeZone);
  };
}

/**
 * How Radar understood the schedule: 'Scheduled #1 "…": every Monday at 09:00 (cron "0 9 * * 1");
 * next Mon 30 Nov 09:00 (UTC).'
 */
function scheduledText(task: TaskInfo, description: string, timeZone: string): string {
  const phrase = description === "once" ? undefined : description;
  return `Scheduled #${task.id} "${task.message.slice(0, 80)}": ${
    describeNewSchedule(task, timeZone, phrase)
  }.`;
}
