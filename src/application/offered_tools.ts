/** Tools offered on daemon runs (heartbeats, tasks): `notify` always, then the most relevant. */
import type { AgentDependencies } from "../core/agent_loop.ts";

/** Tools a proactive run always offers: nobody reads its answer unless it notifies. */
export const proactiveTools = ["notify"];

/**
 * The tool names for a daemon run: every tool when all fit the budget, else always-on tools and
 * `notify` first (a heartbeat message rarely mentions notifications, so keyword relevance alone
 * would not offer it), then the registry's selection within the rest of the budget.
 */
export function daemonToolNames(agent: AgentDependencies, message: string): string[] {
  const names = agent.registry.select(message, agent.settings.toolBudgetTokens, {
    pinned: proactiveTools,
    onDemand: "all",
  }).map((tool) => tool.name);
  for (const name of proactiveTools) {
    if (agent.registry.get(name) && !names.includes(name)) names.push(name);
  }
  return names;
}
