/**
 * comic_info's writing half: ComicInfo.xml into a CBZ, PDF Info into a PDF. The document
 * subprocess writes the new version, which replaces the original atomically (file_replace.ts);
 * the original is kept for undo when a journal is there. Outside the writable folders the change
 * needs a yes (the person in chat, a standing grant, or a pending approval).
 */
import type { ComicArchives, ComicWriteResult } from "../core/comic_archive.ts";
import { checkComicInfoChanges, type ComicInfo, comicInfoFields } from "../core/comic_info.ts";
import { parseComicFileName } from "../core/comic_file_name.ts";
import {
  type PdfInfoKey,
  pdfInfoKeys,
  type PdfInfoWriter,
  type PdfInfoWriteResult,
} from "../core/pdf_reader.ts";
import { failed, refused, timedOut, type ToolContext, type ToolOutput } from "../core/tool.ts";
import { openCheckedForRead, PathChangedError } from "../adapters/os/checked_open.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";
import { askOutsideWritableRoots } from "./writable_roots.ts";
import { ChangedMeanwhileError, replaceFile, type Replacement } from "./file_replace.ts";
import { describeFsError } from "./read_file.ts";
import { libraryPlace } from "./library_place.ts";
import { guessedInfo, infoLine, placeLine } from "./comic_info_read.ts";
import { pdfLayoutFields } from "./pdf_info_read.ts";

/** What writing needs; `journal` records a replaced file for undo (absent: no undo). */
export interface WriteDependencies extends FileAccessDependencies {
  guard: PathGuard;
  archives: ComicArchives;
  pdfInfoWriter?: PdfInfoWriter;
  journal?: ReplaceJournal;
}

/** Records a replaced file: where its original is kept, and returns the change's id. */
export interface ReplaceJournal {
  /** The folder the originals are kept in. */
  folder: string;
  record(
    path: string,
    replacement: Replacement,
    tool: string,
    context: ToolContext,
  ): Promise<number | undefined>;
}

/** Writes ComicInfo.xml changes into the CBZ at `path`. */
export async function setComicInfo(
  deps: WriteDependencies,
  path: string,
  shown: string,
  set: Record<string, string | number | null>,
  context: ToolContext,
): Promise<ToolOutput> {
  if (/\.(cbr|rar)$/i.test(path)) {
    return refused(
      `${shown} is a CBR (RAR): Radar never rewrites one. ComicInfo.xml can be written into a CBZ only.`,
    );
  }
  const checked = checkComicInfoChanges(set);
  if (!checked.ok) return failed(`Nothing was written: ${checked.problems.join("; ")}.`);
  const outside = await askOutsideWritableRoots(
    deps,
    deps.guard,
    [path],
    `write ComicInfo.xml into ${shown}`,
    context,
  );
  if (outside) return refused(outside);
  let written: ComicWriteResult | undefined;
  const outcome = await replaceWith(
    deps,
    path,
    shown,
    "comic_info",
    context,
    async (input, output, size) => {
      written = await deps.archives.writeInfo({
        input,
        size,
        changes: checked.changes,
        output,
        signal: context.signal,
      });
      return written.status === "ok";
    },
  );
  if (typeof outcome === "object" && "outcome" in outcome) return outcome;
  const result = written!;
  switch (result.status) {
    case "ok": {
      const changed = comicInfoFields.filter((field) =>
        result.before?.[field] !== result.info[field]
      );
      const known: ComicInfo = { ...guessedInfo(parseComicFileName(path)), ...result.info };
      const place = await libraryPlace(
        deps.guard,
        "library.comics",
        deps.config.library.comics,
        known,
        path,
      );
      return [
        `Wrote ComicInfo.xml into ${shown}${
          changed.length ? ` (changed: ${changed.join(", ")})` : " (nothing changed)"
        }.`,
        `ComicInfo.xml: ${infoLine(result.info)}`,
        ...(place ? [placeLine(place)] : []),
        ...(outcome ? [outcome] : []),
      ].join("\n");
    }
    case "refused":
      return refused(`${shown}: ${result.message}`);
    case "broken":
      return failed(`${shown} is not a readable zip archive: ${result.message}.`);
    case "timeout":
      return timedOut(
        `Writing ${shown} took longer than ${result.seconds} s and was stopped; nothing changed.`,
      );
    case "failed":
      return failed(`Cannot write ${shown}: ${result.message}; nothing changed.`);
  }
}

/** Writes PDF Info (Title, Author, Subject, Keywords); other keys only fill the layout. */
export async function setPdfInfo(
  deps: WriteDependencies,
  path: string,
  shown: string,
  set: Record<string, string | number | null>,
  context: ToolContext,
): Promise<ToolOutput> {
  const changes: Partial<Record<PdfInfoKey, string | null>> = {};
  const layoutFields: Record<string, string> = {};
  for (const [name, value] of Object.entries(set)) {
    const key = pdfInfoKeys.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    const text = value === null ? null : String(value).replace(/\s+/g, " ").trim().slice(0, 1000);
    if (key) changes[key] = text || null;
    else if (!/^[A-Za-z][A-Za-z0-9_]{0,30}$/.test(name)) {
      return failed(`Nothing was written: ${name.slice(0, 40)} is not a field name.`);
    } else if (text) layoutFields[name] = text;
  }
  const layout = deps.config.library.documents;
  if (!Object.keys(changes).length) {
    const place = await libraryPlace(deps.guard, "library.documents", layout, layoutFields, path);
    return place
      ? placeLine(place)
      : "Nothing to write (PDF Info takes title, author, subject, keywords).";
  }
  if (!deps.pdfInfoWriter) return failed("PDF Info cannot be written here.");
  const outside = await askOutsideWritableRoots(
    deps,
    deps.guard,
    [path],
    `write PDF Info into ${shown}`,
    context,
  );
  if (outside) return refused(outside);
  let written: PdfInfoWriteResult | undefined;
  const outcome = await replaceWith(
    deps,
    path,
    shown,
    "comic_info",
    context,
    async (input, output, size) => {
      written = await deps.pdfInfoWriter!.writeInfo({
        input,
        size,
        changes,
        output,
        signal: context.signal,
      });
      return written.status === "ok";
    },
  );
  if (typeof outcome === "object" && "outcome" in outcome) return outcome;
  const result = written!;
  switch (result.status) {
    case "ok": {
      const fields = { ...pdfLayoutFields(result.after), ...layoutFields };
      const place = await libraryPlace(deps.guard, "library.documents", layout, fields, path);
      const info = Object.entries(result.after).filter(([key]) =>
        (pdfInfoKeys as readonly string[]).includes(key)
      );
      return [
        `Wrote PDF Info into ${shown}: ${
          info.map(([key, value]) => `${key}: ${value}`).join("; ") || "(none)"
        }.`,
        ...(place ? [placeLine(place)] : []),
        ...(outcome ? [outcome] : []),
      ].join("\n");
    }
    case "encrypted":
      return failed(`${shown} is encrypted (password-protected); its Info cannot be written.`);
    case "broken":
      return failed(`${shown} is a broken PDF: ${result.message}.`);
    case "timeout":
      return timedOut(
        `Writing ${shown} took longer than ${result.seconds} s and was stopped; nothing changed.`,
      );
    case "failed":
      return failed(`Cannot write ${shown}: ${result.message}; nothing changed.`);
  }
}

/**
 * Runs `produce` through replaceFile; answers the journal's undo line ("" when not journaled) or a
 * tool result when the file could not be replaced (nothing changed then).
 */
async function replaceWith(
  deps: WriteDependencies,
  path: string,
  shown: string,
  tool: string,
  context: ToolContext,
  produce: (
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
    size: number,
  ) => Promise<boolean>,
): Promise<string | { outcome: "refused" | "error"; text: string }> {
  let source: Deno.FsFile | undefined;
  try {
    source = await openCheckedForRead(path, { guard: deps.guard });
    const size = (await source.stat()).size;
    const replaced = await replaceFile(
      path,
      source,
      (input, output) => produce(input, output, size),
      { backupFolder: deps.journal?.folder },
    );
    if (!replaced) return "";
    const id = await deps.journal?.record(path, replaced, tool, context);
    return id === undefined ? "" : `Undo: radar undo ${id}.`;
  } catch (error) {
    if (error instanceof PathChangedError) {
      return refused(`Cannot write ${shown}: ${error.message}.`) as {
        outcome: "refused";
        text: string;
      };
    }
    if (error instanceof ChangedMeanwhileError) {
      return failed(`${shown} ${error.message}; nothing was replaced.`) as {
        outcome: "error";
        text: string;
      };
    }
    return failed(`Cannot write ${shown}: ${describeFsError(error)}`) as {
      outcome: "error";
      text: string;
    };
  } finally {
    try {
      source?.close();
    } catch { /* closed by its stream */ }
  }
}
