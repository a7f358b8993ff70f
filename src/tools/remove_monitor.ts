/** `remove_monitor`: stop watching a page. */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { MonitorRegistry } from "../core/schedule_ports.ts";
import { refuseOnHeartbeat } from "./schedule_text.ts";

/** Creates the remove_monitor tool. */
export function removeMonitorTool(deps: { monitors: MonitorRegistry }): Tool {
  return defineTool({
    name: "remove_monitor",
    effect: "local_write",
    resultIsData: false,
    description: "Stop watching a web page",
    keywords: ["monitor", "monitored", "unwatch", "watching", "page"],
    input: z.object({ id: z.number().int().positive() }),
    run: ({ id }, context) => {
      const blocked = refuseOnHeartbeat(context, "remove monitors");
      if (blocked) return Promise.resolve(blocked);
      if (!deps.monitors.remove(id)) {
        return Promise.resolve(failed(`No monitor #${id}; list_monitors shows the ids.`));
      }
      return Promise.resolve(`Stopped monitoring #${id}.`);
    },
  });
}
