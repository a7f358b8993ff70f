/**
 * The tools of one Radar in their registration order (the order they are offered in): the
 * built-in tools, then the approved MCP servers' tools, then `find_tools`. The plugins' tools
 * follow when the plugin system starts.
 */
import type { Logger } from "../core/ports.ts";
import { notifyOnce } from "../core/notifier.ts";
import { firstLine } from "../core/first_line.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import type { McpApprovals } from "../mcp/approval.ts";
import type { McpToolSource } from "../mcp/mcp_servers.ts";
import { registerMcpTools } from "../mcp/register_mcp_tools.ts";
import type { ToolDependencies } from "../tools/dependencies.ts";
import { findToolsTool } from "../tools/find_tools.ts";
import { builtinTools } from "../tools/index.ts";

/** Registers the built-in, MCP and `find_tools` tools; returns the MCP source (to close it). */
export function registerTools(
  registry: ToolRegistry,
  deps: ToolDependencies,
  mcp: { approvals: McpApprovals; logger: Logger },
): McpToolSource {
  for (const tool of builtinTools(deps)) registry.register(tool);
  const source = registerMcpTools(
    registry,
    {
      config: deps.config,
      configPath: deps.configPath,
      dataDir: deps.dataDir,
      env: deps.env,
      cwd: deps.cwd,
      fetch: deps.fetch,
      secrets: deps.secrets,
      // A server whose tools changed since approval: the person hears of it once per change.
      tell: (scope, title, message) => {
        notifyOnce(
          deps.notifier,
          deps.sideEffectLog?.(scope),
          { title, message, priority: "default" },
          AbortSignal.timeout(30_000),
        ).catch((error) => mcp.logger.warn(`MCP notice not sent: ${firstLine(error)}`));
      },
    },
    mcp.approvals,
    mcp.logger,
  );
  registry.register(findToolsTool(() => registry.list()));
  return source;
}
