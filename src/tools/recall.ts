/** `recall`: search remembered facts by keywords, and by meaning when an embedding model is set. */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Creates the recall tool. */
export function recallTool(deps: Pick<ToolDependencies, "facts" | "memory">): Tool {
  return defineTool({
    name: "recall",
    description: "Search long-term memory for saved facts",
    alwaysOn: true,
    keywords: ["recall", "remember", "memory", "know", "favorite", "prefer"],
    input: z.object({
      query: z.string().min(1).max(500).describe("Keywords"),
      limit: z.number().int().min(1).max(20).default(5).describe("Max results"),
    }),
    run: async ({ query, limit }, context) => {
      const facts = deps.memory
        ? await deps.memory.search(query, limit, context.signal)
        : deps.facts.searchFacts(query, limit);
      if (!facts.length) return `No memories match "${query}".`;
      return facts.map((fact) => `#${fact.id} [${fact.category}] ${fact.content}`).join("\n");
    },
  });
}
