/**
 * The agent loop (src/core/agent_loop.ts and what it reaches: messages, tool offering, context
 * fitting, the system prompt), loaded at run time by the first heartbeat or task that runs it:
 * a daemon with nothing due never loads it.
 */
export function agentLoopModule(): Promise<typeof import("../core/agent_loop.ts")> {
  return import(new URL("../core/agent_loop.ts", import.meta.url).href);
}
