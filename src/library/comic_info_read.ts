/**
 * comic_info's reading half: what a comic archive or a PDF says about itself (ComicInfo.xml or
 * PDF Info, the file name, the cover read by the vision model), what a lookup service says when
 * asked, and where the library layout would file it. Everything here came from the file or the
 * network: the result reaches the model as untrusted data.
 */
import type { ComicContents } from "./comic_archive.ts";
import { type ComicInfo, comicInfoFields } from "./comic_info.ts";
import { type ComicNameGuess, parseComicFileName } from "./comic_file_name.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";
import type { MetadataLookup } from "./metadata_lookup.ts";
import { readCover } from "./pdf_vision.ts";
import { libraryPlace } from "./library_place.ts";

/** ComicInfo fields from a file-name guess. */
export function guessedInfo(guess: ComicNameGuess): ComicInfo {
  const info: ComicInfo = {};
  if (guess.series) info.Series = guess.series;
  if (guess.number) info.Number = guess.number;
  if (guess.volume) info.Volume = guess.volume;
  if (guess.year) info.Year = guess.year;
  if (guess.month) info.Month = guess.month;
  if (guess.count) info.Count = guess.count;
  if (guess.title) info.Title = guess.title;
  return info;
}

/** `Series: Saga; Number: 54` for the set fields, in schema order, long values cut. */
export function infoLine(info: ComicInfo, max = 160): string {
  return comicInfoFields
    .filter((field) => info[field])
    .map((field) =>
      `${field}: ${info[field]!.length > max ? `${info[field]!.slice(0, max)}…` : info[field]}`
    )
    .join("; ");
}

/** What the reading half needs. */
export interface ComicReadingContext {
  guard: PathGuard;
  path: string;
  shown: string;
  visionModel?: ChatModel;
  lookup?: MetadataLookup;
  layout: string;
  signal: AbortSignal;
}

/** The tool's text for a comic archive. */
export async function describeComic(
  context: ComicReadingContext,
  contents: ComicContents,
): Promise<string> {
  const { pages } = contents;
  const lines = [
    `${context.shown}: ${contents.format.toUpperCase()}, ${pages.length} page${
      pages.length === 1 ? "" : "s"
    }${contents.cover ? `, cover ${contents.cover}` : ""}`,
  ];
  if (pages.length > 1) {
    const shownPages = pages.length <= 4 ? pages : [...pages.slice(0, 3), "…", pages.at(-1)!];
    lines.push(`Pages: ${shownPages.join(", ")}`);
  }

  if (contents.info) lines.push(`ComicInfo.xml: ${infoLine(contents.info) || "(empty)"}`);
  else if (contents.infoProblem) lines.push(`ComicInfo.xml not read: ${contents.infoProblem}`);
  else lines.push("No ComicInfo.xml.");
  const guess = guessedInfo(parseComicFileName(context.path));
  if (Object.keys(guess).length) lines.push(`File name says: ${infoLine(guess)}`);
  const known = { ...guess, ...contents.info };
  if (contents.coverPng && context.visionModel) {
    const reading = await readCover(context.visionModel, contents.coverPng, context.signal);
    lines.push(
      "text" in reading
        ? `Cover read by the vision model (may contain misreadings):\n${
          reading.text || "(nothing)"
        }`
        : `Cover not read: the vision model failed: ${reading.error}`,
    );
  }
  // A lookup when the service is configured and the archive does not say what it is.
  const saysEnough = contents.info?.Series && contents.info?.Number && contents.info?.Year;
  if (context.lookup?.comics && !saysEnough) {
    lines.push(...await comicLookupLines(context.lookup, known, context.signal));
  }
  lines.push(...warningLines(contents));
  const place = await libraryPlace(
    context.guard,
    "library.comics",
    context.layout,
    known,
    context.path,
  );
  if (place) lines.push(placeLine(place));
  return lines.join("\n");
}

/** The lookup's lines for a comic (at most three candidates). */
async function comicLookupLines(
  lookup: MetadataLookup | undefined,
  known: ComicInfo,
  signal: AbortSignal,
): Promise<string[]> {
  if (!lookup?.comics) return ["Lookup: no ComicVine key (library.comicvine.api_key)."];
  const query = [known.Series, known.Number].filter(Boolean).join(" ");
  if (!query) return ["Lookup: nothing to search for (no series)."];
  const answer = await lookup.comics(query, signal);
  if ("error" in answer) return [`Lookup: ${answer.error}`];
  if (!answer.found.length) return [`ComicVine found nothing for "${query}".`];
  return [
    `ComicVine for "${query}" (best first):`,
    ...rankIssues(answer.found.map((issue) => issue.info), known).slice(0, 3)
      .map((info, index) => `${index + 1}. ${infoLine(info, 120)}`),
  ];
}

/** Candidates whose series and number match what the file says come first. */
export function rankIssues(candidates: ComicInfo[], known: ComicInfo): ComicInfo[] {
  const score = (info: ComicInfo) =>
    (same(info.Series, known.Series) ? 4 : 0) + (same(info.Number, known.Number) ? 2 : 0) +
    (same(info.Year, known.Year) ? 1 : 0);
  return candidates
    .map((info, index) => ({ info, index, score: score(info) }))
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .map((item) => item.info);
}

/** True when both are given and equal but for case and surrounding space. */
export function same(left?: string, right?: string): boolean {
  return !!left && !!right && left.trim().toLowerCase() === right.trim().toLowerCase();
}

function warningLines(contents: ComicContents): string[] {
  const { warnings } = contents;
  const lines: string[] = [];
  if (warnings.unsafeNames.length) {
    lines.push(`Unsafe entry names (never extracted): ${warnings.unsafeNames.join(", ")}`);
  }
  if (warnings.bombEntries.length) {
    lines.push(
      `Looks like a decompression bomb (not inflated): ${warnings.bombEntries.join(", ")}`,
    );
  }
  if (warnings.nestedArchives.length) {
    lines.push(`Archives inside (not opened): ${warnings.nestedArchives.join(", ")}`);
  }
  if (warnings.encrypted) lines.push(`${warnings.encrypted} encrypted entries.`);
  return lines;
}

/** "File as: …" or why not. */
export function placeLine(
  place:
    | { ok: true; shown: string; taken?: string; here?: boolean }
    | { ok: false; line: string; missing?: string[] },
): string {
  if (!place.ok) {
    const hint = place.missing ? ` (pass ${place.missing.length > 1 ? "them" : "it"} in set)` : "";
    return `Not filed: ${place.line}${hint}.`;
  }
  if (place.here) return `Filed already: ${place.shown}`;
  return place.taken
    ? `File as: ${place.shown} (${place.taken} is taken)`
    : `File as: ${place.shown}`;
}
