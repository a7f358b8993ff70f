/** `radar digest now|list|search`: summaries of conversations and events, kept as memory. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { checkLimit } from "../../core/bounds.ts";
import { UsageError } from "../../core/errors.ts";
import type { Digest } from "../../core/source_ports.ts";
import { formatDateTime } from "../../core/zoned_time.ts";

/** A digest with its period in `timeZone` ("2026-11-23 00:00 – 2026-11-24 00:00 UTC+01:00"). */
function show(digest: Digest, timeZone?: string): string {
  const span = `${formatDateTime(new Date(digest.startsAt), timeZone)} – ` +
    formatDateTime(new Date(digest.endsAt), timeZone, { zone: true });
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
      context.io.stdout(show(written, radar.config.radar.timezone || undefined));
    });

  digest.command("list")
    .description("the newest digests")
    .option("-n, --limit <count>", "how many", "10")
    .action(async (options: { limit: string }) => {
      const limit = checkLimit(Number(options.limit), "--limit");
      const radar = await context.radar();
      const digests = radar.digests.list(limit);
      if (!digests.length) return context.io.stdout("No digests yet (radar digest now).\n");
      const timeZone = radar.config.radar.timezone || undefined;
      context.io.stdout(digests.map((each) => show(each, timeZone)).join("\n"));
    });

  digest.command("search")
    .description("digests mentioning any of the words")
    .argument("<words...>")
    .action(async (words: string[]) => {
      const text = words.join(" ").trim();
      if (!text) throw new UsageError("Cannot search: give some words");
      const radar = await context.radar();
      const found = radar.digests.search(text, 20);
      if (!found.length) return context.io.stdout(`No digest mentions "${text}".\n`);
      const timeZone = radar.config.radar.timezone || undefined;
      context.io.stdout(found.map((each) => show(each, timeZone)).join("\n"));
    });
}
