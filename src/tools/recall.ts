/** `recall`: search remembered facts by keywords, and by meaning when an embedding model is set. */
import { z } from "zod";
import { HookedMemory } from "../core/hooked_memory.ts";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Facts one recall returns (not a parameter: each one costs prompt tokens on every request). */
const recallLimit = 5;

/** Creates the recall tool. */
export function recallTool(deps: Pick<ToolDependencies, "facts" | "memory" | "hooks">): Tool {
  const memory = new HookedMemory({ facts: deps.facts, hooks: deps.hooks, search: deps.memory });
  return defineTool({
    name: "recall",
    readOnly: true,
    description: "Search long-term memory",
    alwaysOn: true,
    keywords: ["recall", "remember", "memory", "know", "favorite", "prefer"],
    input: z.object({
      query: z.string().min(1).max(500),
    }),
    run: async ({ query }, context) => {
      const facts = await memory.recall(query, recallLimit, context.signal);
      if (!facts.length) return `No memories match "${query}".`;
      // Negative ids are not facts (conversation summaries): no `#id` the model could forget.
      return facts.map((hit) =>
        hit.id < 0
          ? `[${hit.category}] ${hit.content}`
          : `#${hit.id} [${hit.category}] ${hit.content}`
      ).join("\n");
    },
  });
}
