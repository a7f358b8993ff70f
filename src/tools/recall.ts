/** `recall`: search remembered facts by keywords, and by meaning when an embedding model is set. */
import { z } from "zod";
import { HookedMemory } from "../core/hooked_memory.ts";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { formatRecallHit, withDigests } from "./recall_sources.ts";

/** Facts one recall returns (not a parameter: each one costs prompt tokens on every request). */
const recallLimit = 5;

/** Creates the recall tool: facts, conversation summaries and daily/weekly digests. */
export function recallTool(
  deps: Pick<ToolDependencies, "facts" | "memory" | "hooks" | "digests">,
): Tool {
  const memory = new HookedMemory({
    facts: deps.facts,
    hooks: deps.hooks,
    // Digests join before the hooks, so post_memory_search filters them like any memory.
    search: deps.digests ? withDigests(deps.memory, deps.facts, deps.digests) : deps.memory,
  });
  return defineTool({
    name: "recall",
    readOnly: true,
    description: "Search long-term memory",
    alwaysOn: true,
    keywords: ["recall", "remember", "memory", "know", "favorite", "prefer", "digest", "summary"],
    input: z.object({
      query: z.string().min(1).max(500),
    }),
    run: async ({ query }, context) => {
      const hits = await memory.recall(query, recallLimit, context.signal);
      if (!hits.length) return `No memories match "${query}".`;
      return hits.map(formatRecallHit).join("\n");
    },
  });
}
