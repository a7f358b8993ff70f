/**
 * `radar undo [ID]`: undoes a file change Radar made (the newest one not undone yet, or change
 * ID); `--list` shows the action journal. Undo works while the file is still as Radar left it and
 * never overwrites a file that took its old place.
 */
import type { Command } from "commander";
import { describeChange, type JournalEntry, notUndoableNote } from "../../away/mod.ts";
import { displayPath } from "../../config/paths.ts";
import { RadarError } from "../../core/errors.ts";
import { formatDateTime } from "../../core/zoned_time.ts";
import { parseCount, parseId } from "../arguments.ts";
import { jsonOptionHelp, printJson, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";

/** One journal entry in one line. */
function journalLine(
  entry: JournalEntry,
  display: (path: string) => string = (p) => p,
  timeZone?: string,
): string {
  const what = describeChange(entry, display);
  const note = notUndoableNote(entry);
  const state = note ? `  [${note}]` : "";
  const by = entry.approvalId === undefined ? entry.runKind ?? "" : `approval #${entry.approvalId}`;
  return `#${entry.id}  ${formatDateTime(new Date(entry.at), timeZone)}  ${what}  (${by})${state}`;
}

/** Registers `undo`. */
export function registerUndo(program: Command, context: CliContext): void {
  program.command("undo")
    .description("undo a file change Radar made (the newest, or change ID); --list shows them")
    .argument("[id]")
    .option("--list", "the action journal, newest first")
    .option("-n, --limit <n>", "how many with --list", "20")
    .option("--json", jsonOptionHelp)
    .action(
      async (
        id: string | undefined,
        options: { list?: boolean; limit: string; json?: boolean },
      ) => {
        const radar = await context.radar();
        const home = context.io.env.HOME ?? "";
        const display = (path: string) => displayPath(path, home);
        if (options.list) {
          const entries = radar.away.journal.recent(parseCount(options.limit, "--limit"));
          const zone = radar.config.radar.timezone || undefined;
          const line = (entry: JournalEntry) => journalLine(entry, display, zone);
          return printListing(context, options.json, entries, "No file changes recorded.", line);
        }
        const result = await radar.away.undo(id === undefined ? undefined : parseId(id));
        if (options.json) return printJson(context, result);
        if (!result.ok) throw new RadarError(`Cannot undo: ${result.reason}`);
        context.io.stdout(`Undone #${result.entry.id}: ${result.note}.\n`);
      },
    );
}
