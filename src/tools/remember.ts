/**
 * `remember`: store a fact, preference or personality note in memory. A personality note enters
 * every later system prompt, so the model may only add one with the user's yes (interactive chat,
 * CLI or dashboard); unattended runs are refused with how to add it by hand.
 */
import { z } from "zod";
import type { FactCategory } from "../core/ports.ts";
import { refused, type Tool, type ToolContext, type ToolOutput } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { HookedMemory } from "../core/hooked_memory.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** The categories the model may choose. */
const offeredCategories = [
  "user_preference",
  "learned_fact",
  "personality_note",
] as const satisfies readonly FactCategory[];

/** The category that shapes every later conversation. */
const personalityNote = "personality_note";

/** remember's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const rememberInput = lazyValue(() =>
  z.object({
    content: z.string().min(1).max(2000),
    // task_state is not offered (the CLI and dashboard still file it): fewer tokens a request.
    category: z.enum(offeredCategories).default("learned_fact"),
  })
);

/** Creates the remember tool. */
export function rememberTool(deps: Pick<ToolDependencies, "facts" | "clock" | "hooks">): Tool {
  const memory = new HookedMemory({ facts: deps.facts, hooks: deps.hooks });
  return defineTool({
    name: "remember",
    // Memory steers later runs: what a hostile page says must not become a remembered fact.
    effect: "local_write",
    resultIsData: false,
    description: "Save to long-term memory",
    alwaysOn: true,
    keywords: ["remember", "note", "prefer", "memory", "save"],
    parameters: toolParameters.remember,
    input: rememberInput,
    run: async ({ content, category }, context): Promise<ToolOutput> => {
      const text = content.trim();
      // pre_memory_store is asked first (a blocked note needs no yes), then the user.
      const stored = await memory.add(
        { category, content: text, sourceConversationId: context.conversationId },
        deps.clock.now(),
        category === personalityNote ? () => personalityNoteRefusal(text, context) : undefined,
      );
      if (!stored.ok) return refused(stored.message);
      return `Remembered (#${stored.id}, ${category}).`;
    },
  });
}

/** Why a personality note is not added (no yes, or no one to ask); undefined: the user said yes. */
async function personalityNoteRefusal(
  text: string,
  context: ToolContext,
): Promise<string | undefined> {
  const command = `radar memory add --category ${personalityNote} ${JSON.stringify(text)}`;
  if (!context.interactive || !context.confirm) {
    return `Refused: a personality note shapes every later conversation, so it needs the ` +
      `user's yes and nobody can answer in a ${context.kind} run. Tell the user they ` +
      `can add it themselves: ${command}`;
  }
  const yes = await context.confirm(
    `Radar wants to add a personality note (it goes into every later conversation):\n` +
      `  ${JSON.stringify(text)}\nAdd it?`,
  );
  if (yes) return undefined;
  return "The user declined this personality note. Do not retry it; save it as a " +
    "learned_fact only if the user asks.";
}
