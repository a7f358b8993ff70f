/**
 * comic_info's writing half: ComicInfo.xml into a CBZ, PDF Info into a PDF, and with `file` the
 * file moved to its library place in the same change (file_tagging.ts: atomic, journaled,
 * undoable; outside the writable folders a yes, a standing grant or a pending approval).
 */
import type { ComicArchives, ComicWriteResult } from "./comic_archive.ts";
import { changedFields, checkComicInfoChanges, type ComicInfo } from "./comic_info.ts";
import { parseComicFileName } from "./comic_file_name.ts";
import {
  type PdfInfoKey,
  pdfInfoKeys,
  type PdfInfoWriter,
  type PdfInfoWriteResult,
} from "./pdf_reader.ts";
import { failed, refused, timedOut, type ToolContext, type ToolOutput } from "../core/tool.ts";
import {
  isTaggingOutcome,
  type TaggingDependencies,
  type TaggingOutcome,
  writeTagging,
} from "./file_tagging.ts";
import { type LibraryPlace, libraryPlace } from "./library_place.ts";
import { guessedInfo, infoLine, placeLine } from "./comic_info_read.ts";
import { pdfLayoutFields } from "./pdf_info_read.ts";

/** What writing needs; `journal` records each change for undo (absent: no undo). */
export type WriteDependencies = TaggingDependencies & {
  archives: ComicArchives;
  pdfInfoWriter?: PdfInfoWriter;
};

/** One write: the file, its new fields, and whether to file it at its library place. */
export interface WriteRequest {
  path: string;
  shown: string;
  set: Record<string, string | number | null>;
  file?: boolean;
}

/** Writes ComicInfo.xml changes into the CBZ at `path` (and files it, with `file`). */
export async function setComicInfo(
  deps: WriteDependencies,
  request: WriteRequest,
  context: ToolContext,
): Promise<ToolOutput> {
  const { path, shown } = request;
  if (/\.(cbr|rar)$/i.test(path)) {
    return refused(
      `${shown} is a CBR (RAR): Radar never rewrites one. ComicInfo.xml can be written into a CBZ only; move_file files it.`,
    );
  }
  const checked = checkComicInfoChanges(request.set);
  if (!checked.ok) return failed(`Nothing was written: ${checked.problems.join("; ")}.`);
  let written: ComicWriteResult | undefined;
  const placeOf = () => {
    const info = written?.status === "ok" ? written.info : {};
    const known: ComicInfo = { ...guessedInfo(parseComicFileName(path)), ...info };
    return libraryPlace(deps.guard, "library.comics", deps.config.library.comics, known, path);
  };
  const job = { changes: checked.changes, signal: context.signal };
  const outcome = await writeTagging(deps, {
    path,
    shown,
    what: "ComicInfo.xml",
    produce: async (input, output, size) => {
      written = await deps.archives.writeInfo({ input, size, output, ...job });
      return written.status === "ok";
    },
    place: request.file ? placeOf : undefined,
  }, context);
  if (!isTaggingOutcome(outcome)) return outcome;
  const result = written!;
  switch (result.status) {
    case "ok": {
      const changed = changedFields(result.before ?? {}, result.info);
      return [
        `Wrote ComicInfo.xml into ${shown}${
          changed.length ? ` (changed: ${changed.join(", ")})` : " (nothing changed)"
        }.`,
        `ComicInfo.xml: ${infoLine(result.info)}`,
        ...await placeLines(deps, outcome, placeOf),
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
  request: WriteRequest,
  context: ToolContext,
): Promise<ToolOutput> {
  const { path, shown } = request;
  const changes: Partial<Record<PdfInfoKey, string | null>> = {};
  const layoutFields: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.set)) {
    const key = pdfInfoKeys.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    const text = value === null ? null : String(value).replace(/\s+/g, " ").trim().slice(0, 1000);
    if (key) changes[key] = text || null;
    else if (!/^[A-Za-z][A-Za-z0-9_]{0,30}$/.test(name)) {
      return failed(`Nothing was written: ${name.slice(0, 40)} is not a field name.`);
    } else if (text) layoutFields[name] = text;
  }
  const layout = deps.config.library.documents;
  let written: PdfInfoWriteResult | undefined;
  const placeOf = () => {
    const after = written?.status === "ok" ? pdfLayoutFields(written.after) : {};
    const fields = { ...after, ...layoutFields };
    return libraryPlace(deps.guard, "library.documents", layout, fields, path);
  };
  if (!Object.keys(changes).length) {
    const place = await placeOf();
    return place
      ? placeLine(place) + (request.file ? " (nothing to write: move_file files it)" : "")
      : "Nothing to write (PDF Info takes title, author, subject, keywords).";
  }
  const writer = deps.pdfInfoWriter;
  if (!writer) return failed("PDF Info cannot be written here.");
  const outcome = await writeTagging(deps, {
    path,
    shown,
    what: "PDF Info",
    produce: async (input, output, size) => {
      written = await writer.writeInfo({ input, size, output, changes, signal: context.signal });
      return written.status === "ok";
    },
    place: request.file ? placeOf : undefined,
  }, context);
  if (!isTaggingOutcome(outcome)) return outcome;
  const result = written!;
  switch (result.status) {
    case "ok": {
      const info = Object.entries(result.after).filter(([key]) =>
        (pdfInfoKeys as readonly string[]).includes(key)
      );
      return [
        `Wrote PDF Info into ${shown}: ${
          info.map(([key, value]) => `${key}: ${value}`).join("; ") || "(none)"
        }.`,
        ...await placeLines(deps, outcome, placeOf),
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

/** Where the file went (filed), or where the layout would file it; then the undo line. */
async function placeLines(
  deps: WriteDependencies,
  outcome: TaggingOutcome,
  placeOf: () => Promise<LibraryPlace | undefined>,
): Promise<string[]> {
  if (!outcome.done) return [];
  const place = outcome.moved ? undefined : outcome.place ?? await placeOf();
  return [
    ...(outcome.moved ? [`Filed as: ${deps.guard.display(outcome.path)}`] : []),
    ...(place ? [placeLine(place)] : []),
    ...(outcome.undo ? [outcome.undo] : []),
  ];
}
