/** `schedule_task`: run a message through the agent on a schedule (cron in local time). */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { TaskInfo, TaskScheduler } from "../core/schedule_ports.ts";
import { minimumToolIntervalMinutes, refuseOnHeartbeat } from "./schedule_text.ts";
import { understandWhen } from "./schedule_when.ts";
import { describeNewSchedule } from "../core/schedule_words.ts";
import { effectiveTimeZone } from "../core/zoned_time.ts";

/** Creates the schedule_task tool. */
export function scheduleTaskTool(
  deps: { tasks: TaskScheduler; timeZone?: string; now?: () => Date },
): Tool {
  // Resolved at the first call: the machine's zone costs ~20 ms of ICU set-up at start.
  let zone: string | undefined;
  const timeZoneNow = () => zone ??= effectiveTimeZone(deps.timeZone);
  return defineTool({
    name: "schedule_task",
    effect: "local_write",
    resultIsData: false,
    description: "Run a task later or repeatedly",
    keywords: [
      "schedule",
      "every",
      "daily",
      "weekly",
      "monthly",
      "morning",
      "evening",
      "tomorrow",
      "recurring",
      "cron",
      "task",
      "week",
      "monday",
      "tuesday",
      "wednesday",
      "thursday",
      "friday",
      "saturday",
      "sunday",
      "9am",
      "remind",
    ],
    input: z.object({
      message: z.string().min(1).max(2000),
      when: z.string().min(1).max(100).describe("e.g. 'every Monday at 9am'"),
    }),
    run: async ({ message, when }, context) => {
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
    },
  });
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
