/** `radar memory list|search|add|forget`. */
import type { Command } from "commander";
import { NotFoundError, RadarError, UsageError } from "../../core/errors.ts";
import { type Fact, factCategories, type FactCategory } from "../../core/ports.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseId, parseLimit } from "../arguments.ts";

/** One fact in one line. */
function factLine(fact: Fact): string {
  return `${String(fact.id).padStart(5)}  ${fact.category.padEnd(16)} ${fact.content}`;
}

function parseCategory(value: string | undefined): FactCategory | undefined {
  if (value === undefined) return undefined;
  if (!(factCategories as readonly string[]).includes(value)) {
    throw new UsageError(`--category must be one of ${factCategories.join(", ")}, not "${value}"`);
  }
  return value as FactCategory;
}

/** Registers `memory` and its subcommands. */
export function registerMemory(program: Command, context: CliContext): void {
  const memory = program.command("memory").description("manage remembered facts");
  memory.command("list")
    .description("list facts, newest first")
    .option("-n, --limit <n>", "how many", "50")
    .option("--category <category>", factCategories.join(" | "))
    .option("--json", jsonOptionHelp)
    .action(async (options: { limit: string; category?: string; json?: boolean }) => {
      // Through the memory hooks: a listing hides what a search would (filter_memory_pattern).
      const { memory } = await (await context.radar()).agentStack();
      const facts = await memory.listFacts({
        limit: parseLimit(options.limit),
        category: parseCategory(options.category),
      });
      await printListing(context, options.json, facts, "No facts remembered yet.", factLine);
    });
  memory.command("search")
    .description("full-text search of facts")
    .argument("<text...>", "words to look for")
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", jsonOptionHelp)
    .action(async (words: string[], options: { limit: string; json?: boolean }) => {
      const { memory } = await (await context.radar()).agentStack();
      const facts = await memory.searchFacts(
        words.join(" "),
        parseLimit(options.limit),
      );
      const empty = `No facts match "${words.join(" ")}".`;
      await printListing(context, options.json, facts, empty, factLine);
    });
  memory.command("add")
    .description("remember a fact")
    .argument("<text...>", "the fact")
    .option("--category <category>", factCategories.join(" | "), "user_preference")
    .action(async (words: string[], options: { category: string }) => {
      const content = words.join(" ").trim();
      if (!content) throw new UsageError("Cannot add a fact: the text is empty");
      const radar = await context.radar();
      const { memory } = await radar.agentStack();
      const stored = await memory.add(
        { category: parseCategory(options.category)!, content },
        radar.clock.now(),
      );
      if (!stored.ok) throw new RadarError(`Cannot remember this fact: ${stored.message}`);
      context.io.stdout(`Remembered #${stored.id}.\n`);
    });
  memory.command("forget")
    .description("delete a fact")
    .argument("<id>", "fact id")
    .action(async (id: string) => {
      if (!(await context.radar()).facts.forgetFact(parseId(id))) {
        throw new NotFoundError(`Cannot forget fact ${id}: no such fact`);
      }
      context.io.stdout(`Forgot #${id}.\n`);
    });
}
