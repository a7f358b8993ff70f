/**
 * `find_tools`: offered only when not every tool fits the token budget. The model names what it
 * needs; the best matching tools it was not offered are described and offered from its next round.
 */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { findToolsName } from "../core/tool_registry.ts";
import { rankByRelevance } from "../core/tool_relevance.ts";

/** How many tools one search adds at most (each costs prompt tokens from then on). */
const maxFound = 5;

/** find_tools's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const findToolsInput = lazyValue(() => z.object({ need: z.string().min(1).max(300) }));

/** Creates find_tools over the tools `listTools` returns (the registry's, read per call). */
export function findToolsTool(listTools: () => Tool[]): Tool {
  return defineTool({
    name: findToolsName,
    effect: "none",
    // Skill and tool texts are outside text a run reads; they hold nothing of the user's.
    results: "public",
    description: "More tools for a task",
    parameters: toolParameters.find_tools,
    input: findToolsInput,
    run: ({ need }) => {
      const tools = listTools().filter((tool) => tool.name !== findToolsName);
      const nameMatches = tools.filter((tool) =>
        need.toLowerCase().includes(tool.name.toLowerCase())
      );
      const found = [...new Set([...nameMatches, ...rankByRelevance(need, tools)])]
        .slice(0, maxFound);
      if (!found.length) {
        const names = tools.map((tool) => tool.name).join(", ");
        return Promise.resolve({
          text: `No tool matches "${need}". All tools: ${names}. Call find_tools with one name.`,
          outcome: "ok",
        });
      }
      const lines = found.map((tool) => `- ${tool.name}: ${tool.description}`);
      return Promise.resolve({
        text: `These tools are now available; call them directly:\n${lines.join("\n")}`,
        outcome: "ok",
        offerTools: found.map((tool) => tool.name),
      });
    },
  });
}
