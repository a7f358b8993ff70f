/** `recall`: keyword search over remembered facts. */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Creates the recall tool. */
export function recallTool(deps: Pick<ToolDependencies, "facts">): Tool {
  return defineTool({
    name: "recall",
    description: "Search long-term memory for saved facts",
    alwaysOn: true,
    keywords: ["recall", "remember", "memory", "know", "favorite", "prefer"],
    input: z.object({
      query: z.string().min(1).max(500).describe("Keywords"),
      limit: z.number().int().min(1).max(20).default(5).describe("Max results"),
    }),
    run: ({ query, limit }) => {
      const facts = deps.facts.searchFacts(query, limit);
      if (!facts.length) return Promise.resolve(`No memories match "${query}".`);
      return Promise.resolve(
        facts.map((fact) => `#${fact.id} [${fact.category}] ${fact.content}`).join("\n"),
      );
    },
  });
}
