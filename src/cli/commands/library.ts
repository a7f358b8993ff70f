/**
 * `radar library scan FOLDER [--apply] [--lookup] [--json]`: files a backlog of comics and PDFs by
 * the library layout, the way the filing skills do. A dry run by default (the plan, one line per
 * file, and a summary); `--apply` tags and moves through the comic_info and move_file tools
 * (journaled, undoable), which needs a person at a terminal or a standing grant.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import type { CliContext } from "../context.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import { pathGuardFor } from "../../adapters/os/file_access.ts";
import {
  buildLibrary,
  createMetadataLookup,
  filesToFile,
  type FilingStep,
  planFile,
} from "../../library/mod.ts";
import { printJson } from "../json_output.ts";
import { showCount } from "../progress.ts";
import { type ApplyOutcome, applySteps } from "./library_apply.ts";

/** Registers `library`. */
export function registerLibrary(program: Command, context: CliContext): void {
  const library = program.command("library").description(
    "file comics and PDFs by the library layout (library.comics, library.documents)",
  );
  library.command("scan")
    .description("plan (or with --apply, do) the filing of every comic and PDF in FOLDER")
    .argument("<folder>")
    .option("--apply", "tag and move the files (needs a terminal or a standing grant)")
    .option("--lookup", "ask ComicVine about comics whose archive does not say what they are")
    .option("--read", "with --apply: the model reads each PDF the layout needs more about")
    .option("--json", "print the plan (and outcomes) as JSON")
    .action(
      async (
        folder: string,
        options: { apply?: boolean; lookup?: boolean; read?: boolean; json?: boolean },
      ) => {
        const radar = await context.radar();
        const { io } = context;
        const { config } = radar;
        if (!config.library.comics && !config.library.documents) {
          throw new UsageError(
            "Cannot scan: no library layout is set (library.comics or library.documents in radar.yaml)",
          );
        }
        const deps = {
          config,
          dataDir: radar.dataDir,
          configPath: radar.loaded.path,
          env: io.env,
          cwd: io.cwd,
        };
        const guard = pathGuardFor(deps);
        const checked = guard.check(resolve(io.env.INIT_CWD || io.cwd, folder), "read");
        if (!checked.ok) throw new UsageError(`Cannot scan ${folder}: ${checked.reason}`);
        const shown = guard.display(checked.path);
        let info: Deno.FileInfo;
        try {
          info = await Deno.stat(checked.path);
        } catch {
          throw new NotFoundError(`Cannot scan ${shown}: no such folder`);
        }
        if (!info.isDirectory) throw new UsageError(`Cannot scan ${shown}: not a folder`);
        const parsers = buildLibrary(config, io.env);
        const lookup = options.lookup
          ? createMetadataLookup({ config, fetch: globalThis.fetch, clock: radar.clock })
          : undefined;
        if (options.lookup && !lookup?.comics) {
          throw new UsageError("Cannot look up: library.comicvine.api_key is not set");
        }
        const files = await filesToFile(checked.path);
        const planning = {
          config,
          guard,
          comicArchives: parsers.comicArchives,
          pdfReader: parsers.pdfReader,
          lookup,
          reserved: new Set<string>(),
        };
        const signal = new AbortController().signal;
        const steps: FilingStep[] = [];
        for (const [index, path] of files.entries()) {
          showCount(io, index + 1, files.length, guard.display(path));
          steps.push(await planFile(planning, path, signal));
        }
        if (io.stderrIsTerminal && files.length) io.clearStderrLine();
        let outcomes: ApplyOutcome[] | undefined;
        if (options.read && !options.apply) throw new UsageError("--read files PDFs: add --apply");
        if (options.apply) {
          outcomes = await applySteps(radar, context, steps, guard, options.read ?? false);
        }
        if (options.json) {
          return printJson(context, {
            folder: checked.path,
            applied: !!options.apply,
            steps: steps.map((step, index) => ({ ...step, ...(outcomes?.[index] ?? {}) })),
          });
        }
        for (const [index, step] of steps.entries()) {
          io.stdout(`${stepLine(step, (path) => guard.display(path), outcomes?.[index])}\n`);
        }
        io.stdout(`${summaryLine(shown, steps, outcomes)}\n`);
      },
    );
}

/** One line of the plan: `file  a.cbz → ~/Comics/…  (tag Series, Number)`. */
export function stepLine(
  step: FilingStep,
  display: (path: string) => string,
  outcome?: ApplyOutcome,
): string {
  const from = display(step.path);
  const note = step.note ? `  (${step.note})` : "";
  switch (step.status) {
    case "file": {
      const tag = step.tag ? `  tag ${Object.keys(step.tag).join(", ")}` : "";
      const done = outcome ? `  ${outcome.done ? "done" : `NOT DONE: ${outcome.reason}`}` : "";
      return `file    ${from} → ${display(step.target!)}${tag}${note}${done}`;
    }
    case "filed":
      return `filed   ${from}`;
    case "needs": {
      const done = outcome?.done
        ? "  done (read by the model)"
        : outcome?.reason
        ? `  NOT DONE: ${outcome.reason}`
        : "";
      return `skip    ${from}: ${step.note}${done}`;
    }
    case "unreadable":
      return `broken  ${from}: ${step.note}`;
  }
}

/** The closing line: counts, and what to do next. */
export function summaryLine(
  shown: string,
  steps: FilingStep[],
  outcomes?: ApplyOutcome[],
): string {
  const count = (status: FilingStep["status"]) =>
    steps.filter((step) => step.status === status).length;
  const parts = [
    `${steps.length} file${steps.length === 1 ? "" : "s"} in ${shown}`,
    outcomes
      ? `${outcomes.filter((outcome) => outcome.done).length} of ${count("file")} filed`
      : `${count("file")} to file`,
    `${count("filed")} already in place`,
    `${count("needs")} need more than the file says`,
    `${count("unreadable")} unreadable`,
  ];
  const reading = steps.filter((step) => step.kind === "pdf" && step.missing?.length).length;
  const next = outcomes
    ? " Undo: radar undo --list."
    : count("file")
    ? ` Nothing was changed; --apply files them${
      reading ? `, --apply --read lets the model read the ${reading} PDFs` : ""
    }.`
    : reading
    ? ` --apply --read lets the model read the ${reading} PDFs.`
    : "";
  return `${parts.join(", ")}.${next}`;
}
