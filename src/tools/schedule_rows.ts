/**
 * `list_tasks`, `cancel_task`, `list_monitors`, `remove_monitor`: listing and deleting scheduled
 * tasks and watched pages, one shape for both stores.
 */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool, type ToolDefinition } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { MonitorRegistry, TaskScheduler } from "../core/schedule_ports.ts";
import { describeMonitorInfo, describeTaskInfo, refuseOnHeartbeat } from "./schedule_text.ts";

/** A listing tool's arguments (none), built on first use. */
export const listingInput = lazyValue(() => z.object({}));

/** A removal tool's arguments (the row's id), built on first use. */
export const removalInput = lazyValue(() => z.object({ id: z.number().int().positive() }));

/** Creates the list_tasks tool: the scheduled tasks with their next run. */
export function listTasksTool(deps: { tasks: TaskScheduler; timeZone?: string }): Tool {
  return listingTool({
    name: "list_tasks",
    description: "List scheduled tasks",
    keywords: ["schedule", "scheduled", "task", "recurring", "cron", "every"],
    empty: "No scheduled tasks.",
    lines: () => deps.tasks.list().map((task) => describeTaskInfo(task, deps.timeZone)),
  });
}

/** Creates the cancel_task tool: delete a scheduled task by id. */
export function cancelTaskTool(deps: { tasks: TaskScheduler }): Tool {
  return removalTool({
    name: "cancel_task",
    description: "Delete a scheduled task",
    keywords: ["schedule", "scheduled", "task", "recurring", "reminder"],
    words: { action: "cancel tasks", noun: "task", done: "Cancelled task" },
    remove: (id) => deps.tasks.remove(id),
  });
}

/** Creates the list_monitors tool: the watched pages and their state. */
export function listMonitorsTool(deps: { monitors: MonitorRegistry }): Tool {
  return listingTool({
    name: "list_monitors",
    description: "List watched web pages",
    keywords: ["monitor", "monitored", "watch", "watched", "track", "page"],
    empty: "No monitored pages.",
    lines: () => deps.monitors.list().map(describeMonitorInfo),
  });
}

/** Creates the remove_monitor tool: stop watching a page. */
export function removeMonitorTool(deps: { monitors: MonitorRegistry }): Tool {
  return removalTool({
    name: "remove_monitor",
    description: "Stop watching a web page",
    keywords: ["monitor", "monitored", "unwatch", "watching", "page"],
    words: { action: "remove monitors", noun: "monitor", done: "Stopped monitoring" },
    remove: (id) => deps.monitors.remove(id),
  });
}

/** What the model is offered about a tool besides its parameters (written ahead, by its name). */
type Label = Pick<ToolDefinition<z.ZodType>, "description" | "keywords"> & {
  name: keyof typeof toolParameters;
};

/** A read-only tool without arguments that answers one line per row (or `empty`). */
function listingTool({ empty, lines, ...label }: Label & {
  empty: string;
  lines: () => string[];
}): Tool {
  return defineTool({
    ...label,
    effect: "none",
    readOnly: true,
    parameters: toolParameters[label.name],
    input: listingInput,
    run: () => {
      const listed = lines();
      return Promise.resolve(listed.length ? listed.join("\n") : empty);
    },
  });
}

/**
 * A tool that deletes one row by id, never during a heartbeat (see refuseOnHeartbeat); `words`
 * say what is refused, what a row is called and what was done.
 */
function removalTool({ words, remove, ...label }: Label & {
  words: { action: string; noun: string; done: string };
  remove: (id: number) => boolean;
}): Tool {
  return defineTool({
    ...label,
    effect: "local_write",
    resultIsData: false,
    parameters: toolParameters[label.name],
    input: removalInput,
    run: ({ id }, context) => {
      const blocked = refuseOnHeartbeat(context, words.action);
      if (blocked) return Promise.resolve(blocked);
      if (!remove(id)) {
        return Promise.resolve(
          failed(`No ${words.noun} #${id}; list_${words.noun}s shows the ids.`),
        );
      }
      return Promise.resolve(`${words.done} #${id}.`);
    },
  });
}
