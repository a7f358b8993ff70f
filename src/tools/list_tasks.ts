/** `list_tasks`: the scheduled tasks with their next run. */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { TaskScheduler } from "../core/schedule_ports.ts";
import { describeTaskInfo } from "./schedule_text.ts";

/** Creates the list_tasks tool. */
export function listTasksTool(deps: { tasks: TaskScheduler; timeZone?: string }): Tool {
  return defineTool({
    name: "list_tasks",
    effect: "none",
    readOnly: true,
    description: "List scheduled tasks",
    keywords: ["schedule", "scheduled", "task", "recurring", "cron", "every"],
    input: z.object({}),
    run: () => {
      const tasks = deps.tasks.list();
      if (!tasks.length) return Promise.resolve("No scheduled tasks.");
      const lines = tasks.map((task) => describeTaskInfo(task, deps.timeZone));
      return Promise.resolve(lines.join("\n"));
    },
  });
}
