/** `cancel_task`: delete a scheduled task by id. */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { TaskScheduler } from "../core/schedule_ports.ts";
import { refuseOnHeartbeat } from "./schedule_text.ts";

/** Creates the cancel_task tool. */
export function cancelTaskTool(deps: { tasks: TaskScheduler }): Tool {
  return defineTool({
    name: "cancel_task",
    effect: "local_write",
    resultIsData: false,
    description: "Delete a scheduled task",
    keywords: ["schedule", "scheduled", "task", "recurring", "reminder"],
    input: z.object({ id: z.number().int().positive() }),
    run: ({ id }, context) => {
      const blocked = refuseOnHeartbeat(context, "cancel tasks");
      if (blocked) return Promise.resolve(blocked);
      if (!deps.tasks.remove(id)) {
        return Promise.resolve(failed(`No task #${id}; list_tasks shows the ids.`));
      }
      return Promise.resolve(`Cancelled task #${id}.`);
    },
  });
}
