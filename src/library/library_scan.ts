/**
 * `radar library scan FOLDER`: the plan for filing a backlog the way the filing skills do, one
 * file at a time: comics by their ComicInfo.xml, file name and (with lookups) ComicVine; PDFs by
 * their Info. Each file gets a place from the library layout (a free name, never one that exists)
 * and, for a CBZ that lacks them, the ComicInfo.xml fields to write first. Nothing is changed
 * here; applying the plan runs the comic_info and move_file tools.
 */
import { extname, join } from "node:path";
import { type ComicArchives, comicFormatOf } from "./comic_archive.ts";
import type { ComicInfo, ComicInfoField } from "./comic_info.ts";
import { parseComicFileName } from "./comic_file_name.ts";
import type { PdfReader } from "./pdf_reader.ts";
import type { RadarConfig } from "../config/schema.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";
import { libraryPlace } from "./library_place.ts";
import { guessedInfo, rankIssues, same } from "./comic_info_read.ts";
import { pdfLayoutFields } from "./pdf_info_read.ts";
import type { MetadataLookup } from "./metadata_lookup.ts";
import { firstLine } from "../core/errors.ts";

/** What happens to one file. */
export interface FilingStep {
  path: string;
  kind: "comic" | "pdf";
  /** file: tag (maybe) and move; filed: already in place; needs: the layout lacks fields. */
  status: "file" | "filed" | "needs" | "unreadable";
  target?: string;
  /** ComicInfo.xml fields to write before moving (a CBZ lacking them). */
  tag?: Partial<Record<ComicInfoField, string>>;
  /** Why it cannot be filed, or what was found out on the way. */
  note?: string;
  /** The layout's fields the file does not give. */
  missing?: string[];
}

/** What the planner needs. */
export interface LibraryScanDependencies {
  config: RadarConfig;
  guard: PathGuard;
  comicArchives: ComicArchives;
  pdfReader: PdfReader;
  lookup?: MetadataLookup;
  /** Places promised to earlier files of the scan (two files never get one place). */
  reserved: Set<string>;
}

/** The ComicInfo.xml fields a scan writes into a CBZ that lacks them, in this order. */
const tagFields = ["Series", "Number", "Year", "Month", "Title", "Volume", "Count", "Web"] as const;

/** Bounds of one scan. */
export const scanBounds = { maxFiles: 100_000, maxDepth: 12 };

/** The comic and PDF files under `folder` (real path), sorted; hidden entries and links skipped. */
export async function filesToFile(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string, depth: number) => {
    if (depth > scanBounds.maxDepth || found.length >= scanBounds.maxFiles) return;
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(current)) entries.push(entry);
    entries.sort((left, right) => left.name < right.name ? -1 : 1);
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.isSymlink) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory) await walk(path, depth + 1);
      else if (entry.isFile && (comicFormatOf(path) || extname(path).toLowerCase() === ".pdf")) {
        if (found.length < scanBounds.maxFiles) found.push(path);
      }
    }
  };
  await walk(folder, 0);
  return found;
}

/** Plans one file (never throws: a failure is an `unreadable` step). */
export async function planFile(
  deps: LibraryScanDependencies,
  path: string,
  signal: AbortSignal,
): Promise<FilingStep> {
  const kind = comicFormatOf(path) ? "comic" : "pdf";
  try {
    return kind === "comic"
      ? await planComic(deps, path, signal)
      : await planPdf(deps, path, signal);
  } catch (error) {
    return { path, kind, status: "unreadable", note: firstLine(error, 200) };
  }
}

async function planComic(
  deps: LibraryScanDependencies,
  path: string,
  signal: AbortSignal,
): Promise<FilingStep> {
  const file = await openCheckedForRead(path, { guard: deps.guard });
  const size = (await file.stat()).size;
  const result = await deps.comicArchives.read({
    format: comicFormatOf(path)!,
    input: file.readable,
    size,
    signal,
  });
  if (result.status !== "ok") {
    const why = result.status === "timeout"
      ? `took longer than ${result.seconds} s`
      : result.message;
    return { path, kind: "comic", status: "unreadable", note: why };
  }
  const info = result.contents.info ?? {};
  let known: ComicInfo = { ...guessedInfo(parseComicFileName(path)), ...info };
  let note: string | undefined;
  if (deps.lookup?.comics && !(info.Series && info.Number && info.Year) && known.Series) {
    const answer = await deps.lookup.comics(`${known.Series} ${known.Number ?? ""}`.trim(), signal);
    if ("error" in answer) note = answer.error;
    else {
      const best = rankIssues(answer.found.map((issue) => issue.info), known)[0];
      // Only a match on series and number is trusted enough to tag a file unattended.
      if (best && same(best.Series, known.Series) && same(best.Number, known.Number)) {
        known = {
          ...best,
          ...known,
          Year: known.Year ?? best.Year,
          Month: known.Month ?? best.Month,
        };
        note = `ComicVine: ${best.Series} #${best.Number}${best.Year ? ` (${best.Year})` : ""}`;
      }
    }
  }
  const placed = await placeOrStep(deps, "comic", path, known);
  if ("step" in placed) return placed.step;
  const warnings = result.contents.warnings;
  const canTag = result.contents.format === "cbz" && /\.(cbz|zip)$/i.test(path) &&
    !warnings.unsafeNames.length && !warnings.bombEntries.length && !warnings.encrypted;
  const tag: Partial<Record<ComicInfoField, string>> = {};
  if (canTag) {
    for (const field of tagFields) if (known[field] && !info[field]) tag[field] = known[field];
  }
  return {
    path,
    kind: "comic",
    status: "file",
    target: placed.target,
    ...(Object.keys(tag).length ? { tag } : {}),
    ...(note ? { note } : {}),
  };
}

async function planPdf(
  deps: LibraryScanDependencies,
  path: string,
  signal: AbortSignal,
): Promise<FilingStep> {
  const file = await openCheckedForRead(path, { guard: deps.guard });
  const bytes = new Uint8Array(await new Response(file.readable).arrayBuffer());
  const result = await deps.pdfReader.read({ bytes, first: 0, last: 0, maxPageChars: 0, signal });
  if (result.status !== "ok") {
    const why = result.status === "timeout"
      ? `took longer than ${result.seconds} s`
      : "message" in result
      ? result.message
      : "encrypted";
    return { path, kind: "pdf", status: "unreadable", note: why };
  }
  const placed = await placeOrStep(deps, "pdf", path, pdfLayoutFields(result.contents.metadata));
  if ("step" in placed) return placed.step;
  return { path, kind: "pdf", status: "file", target: placed.target };
}

/**
 * The free place the library layout gives the file (now promised to it), or the step that says
 * why it is not filed: the layout is unset or lacks fields (a PDF's are listed), or it is there.
 */
async function placeOrStep(
  deps: LibraryScanDependencies,
  kind: FilingStep["kind"],
  path: string,
  fields: Record<string, string | undefined>,
): Promise<{ target: string } | { step: FilingStep }> {
  const key = kind === "comic" ? "library.comics" : "library.documents";
  const layout = kind === "comic" ? deps.config.library.comics : deps.config.library.documents;
  const place = await libraryPlace(deps.guard, key, layout, fields, path, deps.reserved);
  if (!place) return { step: { path, kind, status: "needs", note: `${key} is not set` } };
  if (!place.ok) {
    const missing = kind === "pdf" && place.missing ? { missing: place.missing } : {};
    return { step: { path, kind, status: "needs", note: place.line, ...missing } };
  }
  if (place.here) return { step: { path, kind, status: "filed" } };
  deps.reserved.add(place.path);
  return { target: place.path };
}
