/**
 * `radar personality list|show|create|edit|use|remove`: the personalities of the data folder
 * (flat `NAME.md` and directory `NAME/PERSONALITY.md`), the enabled plugins' and the bundled
 * default. create, edit, use and remove are control commands (a person at a terminal).
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import { firstLine, NotFoundError, UsageError } from "../../core/errors.ts";
import type { PersonalityDetails, PersonalitySummary } from "../../personalities/personality.ts";
import { editPersonality } from "./personality_edit.ts";

/** Registers `personality` and its subcommands. */
export function registerPersonality(program: Command, context: CliContext): void {
  const personality = program.command("personality")
    .description("personalities: list, show, create, edit, use, remove");
  const catalog = async () => await (await context.radar()).personalities();

  personality.command("list").description("list personalities (* marks the active one)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const personalities = await catalog();
      const rows = personalities.list();
      const problem = personalities.problem();
      if (options.json) {
        return printJson(context, { personalities: rows, problem: problem ?? null });
      }
      const width = Math.max(...rows.map((row) => row.name.length));
      for (const row of rows) context.io.stdout(listLine(row, width));
      if (problem) context.io.stdout(`\nProblem: ${problem}\n`);
    });

  personality.command("show").argument("<name>")
    .description("print a personality's file, settings and context documents")
    .option("--json", jsonOptionHelp)
    .action(async (name: string, options: { json?: boolean }) => {
      const details = (await catalog()).show(name);
      if (!details) throw new NotFoundError(`No personality named "${name}"`);
      if (options.json) return printJson(context, details);
      context.io.stdout(showText(details));
    });

  personality.command("create").argument("<name>")
    .description("create a personality in the data folder (then edit it)")
    .option("--directory", "a folder with PERSONALITY.md and context/ for documents")
    .option("--from <file>", "start from this file's text")
    .action(async (name: string, options: { directory?: boolean; from?: string }) => {
      let text: string | undefined;
      if (options.from) {
        const path = resolve(context.io.env.INIT_CWD || context.io.cwd, options.from);
        try {
          text = Deno.readTextFileSync(path);
        } catch (error) {
          throw new UsageError(`Cannot read ${path}: ${firstLine(error)}`);
        }
      }
      const created = (await catalog()).create(name, { directory: options.directory, text });
      context.io.stdout(
        `Created personality ${created.name} (${created.source}). ` +
          `Edit it with: radar personality edit ${created.name}\n`,
      );
      if (created.warning) context.io.stderr(`warning: ${created.warning}\n`);
    });

  personality.command("edit").argument("<name>")
    .description("open a personality in $VISUAL or $EDITOR (vi), checked before it is saved")
    .action(async (name: string) => {
      const saved = await editPersonality(context, await catalog(), name);
      context.io.stdout(
        `Saved personality ${saved.name} (~${saved.promptTokens} prompt tokens).\n`,
      );
      if (saved.warning) context.io.stderr(`warning: ${saved.warning}\n`);
    });

  personality.command("use").argument("<name>")
    .description("make a personality the active one (RADAR_PERSONALITY and -P still win)")
    .action(async (name: string) => {
      const personalities = await catalog();
      personalities.use(name);
      context.io.stdout(`New conversations use personality ${name}.\n`);
      const active = personalities.activeName();
      if (active !== name) {
        context.io.stderr(`note: RADAR_PERSONALITY=${active} overrides this in this shell\n`);
      }
    });

  personality.command("remove").argument("<name>")
    .description("delete a personality from the data folder")
    .action(async (name: string) => {
      (await catalog()).remove(name);
      context.io.stdout(`Removed personality ${name}.\n`);
    });
}

function listLine(row: PersonalitySummary, width: number): string {
  const kind = row.kind === "directory" ? "dir" : row.kind;
  return `${row.active ? "*" : " "} ${row.name.padEnd(width)}  ${kind.padEnd(7)}  ` +
    `${row.description}\n    ${row.source}${row.editable ? "" : " (read-only)"}\n`;
}

/** What `personality show` prints. */
function showText(details: PersonalityDetails): string {
  const lines = [
    `${details.name}${details.active ? " (active)" : ""} — ${details.kind}: ${details.source}` +
    (details.editable ? "" : " (read-only)"),
    details.description,
  ];
  if (details.model) lines.push(`model: ${details.model}`);
  if (details.temperature !== undefined) lines.push(`temperature: ${details.temperature}`);
  if (details.tools?.include) lines.push(`tools include: ${details.tools.include.join(", ")}`);
  if (details.tools?.exclude) lines.push(`tools exclude: ${details.tools.exclude.join(", ")}`);
  if (details.contextDocuments.length) {
    lines.push("context documents (load_context):");
    for (const document of details.contextDocuments) {
      lines.push(`  ${document.name}: ${document.description}`);
    }
  }
  lines.push(`system prompt: ~${details.promptTokens} tokens`);
  if (details.warning) lines.push(`warning: ${details.warning}`);
  lines.push("", details.text.trimEnd(), "");
  return lines.join("\n");
}
