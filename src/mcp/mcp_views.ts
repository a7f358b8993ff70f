/** MCP servers for the dashboard: the program's name (never the whole argv), state and grants. */
import { basename } from "node:path";
import type { RadarConfig } from "../config/schema.ts";
import type { McpApprovals } from "./approval.ts";
import { mcpServerStatuses } from "./mcp_statuses.ts";
import type { McpServerSummary } from "../core/plugin_state.ts";

/** Every known server, or none when the approvals cannot be read. */
export function mcpServerViews(config: RadarConfig, approvals: McpApprovals): McpServerSummary[] {
  try {
    return mcpServerStatuses(config, approvals).map((status) => {
      const approval = status.state === "approved" ? approvals.get(status.name) : undefined;
      const program = status.target.startsWith("http")
        ? new URL(status.target).origin
        : basename(status.target.split(" ")[0] ?? "");
      const grants = [
        status.folders.length ? status.folders.join(", ") : "no folders",
        ...(status.readFolders.length ? [`read ${status.readFolders.join(", ")}`] : []),
        status.network ? "network" : "no network",
        status.env.length ? `env ${status.env.join(", ")}` : "no env",
      ].join("; ");
      return {
        name: status.name,
        program,
        state: status.state,
        grants,
        tools: approval?.tools.length ?? 0,
        ...(status.toolChanges ? { toolChanges: status.toolChanges } : {}),
      };
    });
  } catch {
    return [];
  }
}
