/** `schedule_task`: run a message through the agent on a schedule (cron in local time). */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { TaskScheduler } from "../core/schedule_ports.ts";
import {
  describeTaskInfo,
  minimumToolIntervalMinutes,
  refuseOnHeartbeat,
} from "./schedule_text.ts";

/** Splits "every 2h" / "at 2026-12-01 09:00" / a cron expression into the port's fields. */
export function parseWhen(when: string): { cron?: string; every?: string; at?: string } {
  const text = when.trim();
  const every = /^every\s+(.+)$/i.exec(text);
  if (every) return { every: every[1] };
  const at = /^at\s+(.+)$/i.exec(text);
  if (at) return { at: at[1] };
  return { cron: text };
}

/** Creates the schedule_task tool. */
export function scheduleTaskTool(deps: { tasks: TaskScheduler }): Tool {
  return defineTool({
    name: "schedule_task",
    description: "Schedule a message to run later or repeatedly (local time)",
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
      message: z.string().min(1).max(2000).describe("What to do each time"),
      when: z.string().min(1).max(100).describe(
        'Cron "0 9 * * 1", "every 2h" or "at 2026-12-01 09:00"',
      ),
    }),
    run: ({ message, when }, context) => {
      const blocked = refuseOnHeartbeat(context, "schedule tasks");
      if (blocked) return Promise.resolve(blocked);
      const added = deps.tasks.add({
        message,
        ...parseWhen(when),
        minIntervalMinutes: minimumToolIntervalMinutes,
      });
      if ("error" in added) return Promise.resolve(failed(`Cannot schedule: ${added.error}.`));
      return Promise.resolve(`Scheduled ${describeTaskInfo(added)}`);
    },
  });
}
