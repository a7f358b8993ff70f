/** Adds approved MCP servers' tools to the registry (never replacing a tool already there). */
import type { Logger } from "../core/ports.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import type { McpApprovals } from "./approval.ts";
import { type McpDependencies, type McpToolSource, mcpToolSource } from "./mcp_servers.ts";
import { firstLine } from "../core/errors.ts";

/** Registers the tools; the returned source's `close()` stops the servers it started. */
export function registerMcpTools(
  registry: ToolRegistry,
  deps: McpDependencies,
  approvals: McpApprovals,
  logger: Logger,
): McpToolSource {
  let source: McpToolSource;
  try {
    source = mcpToolSource({ warn: (line) => logger.warn(line), ...deps }, approvals);
  } catch (error) {
    // An old or read-only database without the approvals table: no MCP tools, Radar still runs.
    logger.warn(`MCP servers are off: ${firstLine(error)}`);
    return { tools: [], problems: [], close: () => Promise.resolve() };
  }
  const taken = new Set(registry.list().map((tool) => tool.name));
  for (const tool of source.tools) {
    if (taken.has(tool.name)) {
      logger.warn(`${tool.source}: tool ${tool.name} is already registered; skipped`);
      continue;
    }
    taken.add(tool.name);
    registry.register(tool);
  }
  for (const problem of source.problems) logger.debug(problem); // `radar mcp list` shows them
  return source;
}
