/**
 * `pdf_extract`: page count, metadata and the text of the first and last pages. The tool checks
 * the path and reads the bytes; the PdfReader port parses them (MuPDF in a killable subprocess).
 */
import { z } from "zod";
import type { PageReadings, PdfContents } from "../library/mod.ts";
import { failed, refused, timedOut, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import { fileFailure } from "../adapters/os/file_changes.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";

const maxPdfBytes = 200 * 1024 * 1024;
const maxPageChars = 4000;
const metadataKeys = ["Title", "Author", "Subject", "Keywords", "Creator", "Producer"];

/** What pdf_extract needs: the file tools' dependencies and a PDF reader. */
export type PdfToolDependencies =
  & FileAccessDependencies
  & Pick<ToolDependencies, "pdfReader" | "visionModel">;

/** pdf_extract's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const pdfExtractInput = lazyValue(() =>
  z.object({
    path: z.string().min(1),
    first: z.number().int().min(0).max(50).optional(),
    last: z.number().int().min(0).max(50).optional(),
  })
);

/** Creates the pdf_extract tool. */
export function pdfExtractTool(deps: PdfToolDependencies): Tool {
  const defaults = deps.config.tools.pdf;
  return defineTool({
    name: "pdf_extract",
    effect: "none",
    pathArguments: ["path"],
    readOnly: true,
    description: "Read a PDF's first/last N pages",
    keywords: ["pdf", "document", "read", "page", "extract", "invoice", "paper", "book"],
    parameters: toolParameters.pdf_extract,
    input: pdfExtractInput,
    run: async ({ path, first, last }, context) => {
      const guard = pathGuardFor(deps);
      const checked = guard.check(path, "read");
      if (!checked.ok) return refused(checked.reason);
      const shown = guard.display(checked.path);
      let bytes: Uint8Array;
      try {
        const info = await Deno.stat(checked.path);
        if (!info.isFile) return failed(`${shown} is not a file.`);
        if (info.size > maxPdfBytes) return failed(`${shown} is too large (${info.size} bytes).`);
        const file = await openCheckedForRead(checked.path, { guard });
        try {
          bytes = new Uint8Array(await new Response(file.readable).arrayBuffer());
        } catch (error) {
          try {
            file.close();
          } catch { /* already closed by the stream */ }
          throw error;
        }
      } catch (error) {
        return fileFailure("read", shown, error);
      }
      if (!new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF")) {
        return failed(`${shown} is not a PDF (no %PDF header).`);
      }
      // The library's face (vision reading of scanned pages), loaded with the first PDF read.
      const library = await libraryModule();
      const result = await deps.pdfReader.read({
        bytes,
        first: first ?? defaults.first_pages,
        last: last ?? defaults.last_pages,
        maxPageChars,
        signal: context.signal,
        renderImagePages: deps.visionModel ? library.maxVisionPages : 0,
      });
      switch (result.status) {
        case "ok": {
          const vision = deps.visionModel;
          const readings = vision
            ? await library.readImagePages(
              vision,
              result.contents.pages,
              maxPageChars,
              context.signal,
            )
            : new Map();
          return describeContents(library, shown, result.contents, readings, vision?.model);
        }
        case "encrypted":
          return failed(`${shown} is encrypted (password-protected); its text cannot be read.`);
        case "broken":
          return failed(`${shown} is a broken PDF: ${result.message}.`);
        case "timeout":
          return timedOut(
            `Reading ${shown} took longer than ${result.seconds} s and was stopped (tools.pdf.timeout_seconds); the PDF may be malformed or hostile.`,
          );
        case "failed":
          return failed(`Cannot read ${shown}: ${result.message}.`);
      }
    },
  });
}

/** The tool's text for extracted contents. */
function describeContents(
  library: typeof import("../library/mod.ts"),
  shown: string,
  contents: PdfContents,
  readings: PageReadings,
  visionModel: string | undefined,
): string {
  const { pageCount, pages } = contents;
  const lines = [`${shown}: ${pageCount} page${pageCount === 1 ? "" : "s"}, ${contents.format}`];
  const metadata = metadataKeys
    .map((key) => [key, contents.metadata[key]?.trim()] as const)
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}: ${value!.slice(0, 200)}`);
  const created = pdfDate(contents.metadata.CreationDate);
  if (created) metadata.push(`Created: ${created}`);
  if (metadata.length) lines.push(metadata.join("; "));
  const imageOnly: number[] = [];
  for (const page of pages) {
    lines.push(`--- page ${page.number} ---`);
    if (page.error) lines.push(`[page cannot be read: ${page.error}]`);
    else if (page.text) {
      lines.push(
        page.cutChars ? `${page.text}\n[page cut: ${page.cutChars} more characters]` : page.text,
      );
    } else if (page.images) {
      imageOnly.push(page.number);
      const beyondLimit = imageOnly.length > library.maxVisionPages;
      lines.push(...library.imagePageLines(readings.get(page.number), visionModel, beyondLimit));
    } else lines.push("[blank page]");
  }
  const skipped = pageCount - pages.length;
  if (skipped > 0) {
    lines.push(`[${skipped} other pages not extracted; use first/last for more]`);
  }
  if (imageOnly.length && imageOnly.length === pages.length && !readings.size) {
    lines.push("[no text layer on the extracted pages: probably a scan]");
  }
  return lines.join("\n");
}

/** "D:20261122091500Z" → "2026-11-22 09:15". */
export function pdfDate(value: string | undefined): string | undefined {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(value ?? "");
  if (!match) return undefined;
  const [, year, month = "01", day = "01", hour, minute] = match;
  return `${year}-${month}-${day}${hour ? ` ${hour}:${minute ?? "00"}` : ""}`;
}

/** Re-exported for callers that used to find it here. */
export { selectPages } from "../library/pdf_reader.ts";

/** The library's face (vision reading of scanned pages), loaded with the first PDF read. */
function libraryModule(): Promise<typeof import("../library/mod.ts")> {
  return import(new URL("../library/mod.ts", import.meta.url).href);
}
