/** `schedule_task`: run a message through the agent on a schedule (cron in local time). */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool, runOnFirstCall } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { TaskScheduler } from "../core/schedule_ports.ts";

/** The tool's run, loaded with its first call (a run that schedules nothing loads none of it). */
function scheduleTaskModule(): Promise<typeof import("./schedule_task_run.ts")> {
  return import(new URL("./schedule_task_run.ts", import.meta.url).href);
}

/** schedule_task's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const scheduleTaskInput = lazyValue(() =>
  z.object({
    message: z.string().min(1).max(2000),
    when: z.string().min(1).max(100).describe("e.g. 'every Monday at 9am'"),
  })
);

/** Creates the schedule_task tool. */
export function scheduleTaskTool(
  deps: { tasks: TaskScheduler; timeZone?: string; now?: () => Date },
): Tool {
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
    parameters: toolParameters.schedule_task,
    input: scheduleTaskInput,
    run: runOnFirstCall(async () => (await scheduleTaskModule()).scheduleTaskRun(deps)),
  });
}
