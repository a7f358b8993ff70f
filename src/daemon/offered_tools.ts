/** Tools offered on daemon runs (heartbeats, tasks): `notify` always, then the most relevant. */
import type { AgentDependencies } from "../core/agent_loop.ts";
import { toolTokenCost } from "../core/tool_registry.ts";

/** Tools a proactive run always offers: nobody reads its answer unless it notifies. */
export const proactiveTools = ["notify"];

/**
 * The tool names for a daemon run: always-on tools and `notify` first (a heartbeat message
 * rarely mentions notifications, so keyword relevance alone would not offer it), then the
 * registry's selection within the rest of the budget.
 */
export function daemonToolNames(agent: AgentDependencies, message: string): string[] {
  const pinned = proactiveTools.map((name) => agent.registry.get(name))
    .filter((tool) => tool !== undefined);
  const pinnedCost = pinned.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
  const budget = Math.max(0, agent.settings.toolBudgetTokens - pinnedCost);
  const names = agent.registry.select(message, budget).map((tool) => tool.name);
  for (const tool of pinned) if (!names.includes(tool.name)) names.push(tool.name);
  return names;
}
