/** `monitor_url`: watch a web page; its changes reach the heartbeat as short diffs. */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { MonitorRegistry } from "../core/schedule_ports.ts";
import { describeMonitorInfo, refuseOnHeartbeat } from "./schedule_text.ts";
import { originsOrAnywhere } from "./destinations.ts";

/** monitor_url's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const monitorUrlInput = lazyValue(() =>
  z.object({
    url: z.string().min(1).max(2000),
    every: z.string().max(20).optional(),
    selector: z.string().max(500).optional(),
  })
);

/** Creates the monitor_url tool. */
export function monitorUrlTool(deps: { monitors: MonitorRegistry }): Tool {
  return defineTool({
    name: "monitor_url",
    // The monitor fetches its URL on every check from then on.
    effect: "sends_out",
    destinations: ({ url }) => originsOrAnywhere(url),
    urlArguments: ["url"],
    resultIsData: false,
    description: "Watch a web page (or a CSS selector of it) for changes",
    keywords: ["monitor", "watch", "track", "page", "website", "change", "price", "url"],
    parameters: toolParameters.monitor_url,
    input: monitorUrlInput,
    run: async (input, context) => {
      const blocked = refuseOnHeartbeat(context, "add monitors");
      if (blocked) return blocked;
      const added = await deps.monitors.add(input);
      if ("error" in added) return failed(`Cannot monitor: ${added.error}.`);
      return `Monitoring ${describeMonitorInfo(added)}. Changes arrive with the next heartbeat.`;
    },
  });
}
