/**
 * comic_info on a PDF: its Info (title, author, subject, keywords), Open Library's candidates when
 * a lookup is asked for, and where `library.documents` would file it. The text of the pages is
 * pdf_extract's job.
 */
import { pdfInfoKeys, type PdfReader } from "./pdf_reader.ts";
import { failed, timedOut, type ToolOutput } from "../core/tool.ts";
import { libraryPlace } from "./library_place.ts";
import { type ComicReadingContext, placeLine } from "./comic_info_read.ts";
import { describeFsError } from "../adapters/os/file_changes.ts";

/** What reading a PDF's metadata needs: what a comic's does (no vision model), and a reader. */
export interface PdfReadingContext extends Omit<ComicReadingContext, "visionModel"> {
  pdfReader: PdfReader;
}

/** The layout fields a PDF's Info gives (`title`, `author`, …; names match any casing). */
export function pdfLayoutFields(info: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of pdfInfoKeys) if (info[key]) fields[key.toLowerCase()] = info[key];
  return fields;
}

/** The tool's text for a PDF's metadata. */
export async function describePdf(
  context: PdfReadingContext,
  file: Deno.FsFile,
): Promise<ToolOutput> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await new Response(file.readable).arrayBuffer());
  } catch (error) {
    return failed(`Cannot read ${context.shown}: ${describeFsError(error)}`);
  }
  if (!new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF")) {
    return failed(`${context.shown} is not a PDF (no %PDF header).`);
  }
  const result = await context.pdfReader.read({
    bytes,
    first: 0,
    last: 0,
    maxPageChars: 0,
    signal: context.signal,
  });
  if (result.status === "encrypted") {
    return failed(`${context.shown} is encrypted (password-protected).`);
  }
  if (result.status === "timeout") {
    return timedOut(
      `Reading ${context.shown} took longer than ${result.seconds} s and was stopped.`,
    );
  }
  if (result.status !== "ok") return failed(`Cannot read ${context.shown}: ${result.message}.`);
  const { pageCount, metadata } = result.contents;
  const info = Object.fromEntries(
    pdfInfoKeys.filter((key) => metadata[key]).map((key) => [key, metadata[key]]),
  );
  const lines = [
    `${context.shown}: PDF, ${pageCount} page${pageCount === 1 ? "" : "s"}`,
    Object.keys(info).length
      ? `PDF Info: ${Object.entries(info).map(([key, value]) => `${key}: ${value}`).join("; ")}`
      : "PDF Info: none set.",
  ];
  // Open Library (when enabled) for a PDF that does not name its author: a book, perhaps.
  if (context.lookup?.books && !info.Author) {
    lines.push(...await bookLookupLines(context, info.Title ?? fileStem(context.path)));
  }
  const place = await libraryPlace(
    context.guard,
    "library.documents",
    context.layout,
    pdfLayoutFields(info),
    context.path,
  );
  if (place) lines.push(placeLine(place));
  return lines.join("\n");
}

async function bookLookupLines(context: PdfReadingContext, query: string): Promise<string[]> {
  if (!context.lookup?.books) return ["Lookup: Open Library is off (library.open_library)."];
  const answer = await context.lookup.books(query, context.signal);
  if ("error" in answer) return [`Lookup: ${answer.error}`];
  if (!answer.found.length) return [`Open Library found nothing for "${query}".`];
  return [
    `Open Library for "${query}":`,
    ...answer.found.slice(0, 3).map((book, index) =>
      `${index + 1}. ${book.title}${book.authors.length ? ` — ${book.authors.join(", ")}` : ""}${
        book.year ? ` (${book.year})` : ""
      }${book.publisher ? `, ${book.publisher}` : ""}${book.isbn ? `, ISBN ${book.isbn}` : ""}${
        book.url ? `, ${book.url}` : ""
      }`
    ),
  ];
}

function fileStem(path: string): string {
  return (path.split("/").at(-1) ?? "").replace(/\.pdf$/i, "").replace(/[_.]+/g, " ").trim();
}
