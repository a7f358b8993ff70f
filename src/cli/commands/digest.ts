/** `radar digest now|list|search`: summaries of conversations and events, kept as memory. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { checkLimit } from "../../core/bounds.ts";
import { UsageError } from "../../core/errors.ts";
import type { Digest } from "../../core/source_ports.ts";

function show(digest: Digest): string {
  const span = `${digest.startsAt.slice(0, 16).replace("T", " ")} – ` +
    `${digest.endsAt.slice(0, 16).replace("T", " ")} UTC`;
  return `#${digest.id} ${digest.period} ${span}\n${digest.content}\n`;
}

/** Registers `digest`. */
export function registerDigest(program: Command, context: CliContext): void {
  const digest = program.command("digest").description(
    "daily/weekly summaries of conversations and events (searchable)",
  );

  digest.command("now")
    .description("summarise the last 24 hours (or 7 days with --week) now")
    .option("--week", "the last 7 days")
    .action(async (options: { week?: boolean }) => {
      const radar = await context.radar();
      const to = radar.clock.now();
      const days = options.week ? 7 : 1;
      const from = new Date(to.getTime() - days * 86_400_000);
      const written = await radar.digests.write(options.week ? "week" : "day", from, to);
      context.io.stdout(show(written));
    });

  digest.command("list")
    .description("the newest digests")
    .option("-n, --limit <count>", "how many", "10")
    .action(async (options: { limit: string }) => {
      const limit = checkLimit(Number(options.limit), "--limit");
      const digests = (await context.radar()).digests.list(limit);
      if (!digests.length) return context.io.stdout("No digests yet (radar digest now).\n");
      context.io.stdout(digests.map(show).join("\n"));
    });

  digest.command("search")
    .description("digests mentioning any of the words")
    .argument("<words...>")
    .action(async (words: string[]) => {
      const text = words.join(" ").trim();
      if (!text) throw new UsageError("Cannot search: give some words");
      const found = (await context.radar()).digests.search(text, 20);
      if (!found.length) return context.io.stdout(`No digest mentions "${text}".\n`);
      context.io.stdout(found.map(show).join("\n"));
    });
}
