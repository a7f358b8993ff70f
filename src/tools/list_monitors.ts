/** `list_monitors`: the watched pages and their state. */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { MonitorRegistry } from "../core/schedule_ports.ts";
import { describeMonitorInfo } from "./schedule_text.ts";

/** Creates the list_monitors tool. */
export function listMonitorsTool(deps: { monitors: MonitorRegistry }): Tool {
  return defineTool({
    name: "list_monitors",
    effect: "none",
    readOnly: true,
    description: "List watched web pages",
    keywords: ["monitor", "monitored", "watch", "watched", "track", "page"],
    input: z.object({}),
    run: () => {
      const monitors = deps.monitors.list();
      if (!monitors.length) return Promise.resolve("No monitored pages.");
      return Promise.resolve(monitors.map(describeMonitorInfo).join("\n"));
    },
  });
}
