/** `remember`: store a fact, preference or personality note in memory. */
import { z } from "zod";
import { factCategories } from "../core/ports.ts";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** Creates the remember tool. */
export function rememberTool(deps: Pick<ToolDependencies, "facts" | "clock">): Tool {
  return defineTool({
    name: "remember",
    description: "Save a fact about the user or a task to long-term memory",
    alwaysOn: true,
    keywords: ["remember", "note", "prefer", "memory", "save"],
    input: z.object({
      content: z.string().min(1).max(2000).describe("The fact, one sentence"),
      category: z.enum(factCategories).default("learned_fact").describe("Kind of fact"),
    }),
    run: ({ content, category }, context) => {
      const id = deps.facts.addFact(
        { category, content: content.trim(), sourceConversationId: context.conversationId },
        deps.clock.now(),
      );
      return Promise.resolve(`Remembered (#${id}, ${category}).`);
    },
  });
}
