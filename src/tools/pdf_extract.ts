/** `pdf_extract`: page count, metadata and the text of the first and last pages (MuPDF, lazy). */
import { z } from "zod";
import { defineTool, failed, refused, type Tool } from "../core/tool.ts";
import { openCheckedForRead, PathChangedError } from "./checked_open.ts";
import { type FileToolDependencies, pathGuardFor } from "./file_access.ts";
import { describeFsError } from "./read_file.ts";

type Mupdf = typeof import("mupdf");

let mupdfModule: Promise<Mupdf> | undefined;

/** Loads MuPDF's WASM once, on first use (about 250 ms), so other commands never pay for it. */
export function loadMupdf(): Promise<Mupdf> {
  mupdfModule ??= import("mupdf").then((module) => {
    module.setLog(null);
    return module;
  });
  return mupdfModule;
}

const maxPdfBytes = 200 * 1024 * 1024;
const maxPageChars = 4000;
const metadataKeys = ["Title", "Author", "Subject", "Keywords", "Creator", "Producer"];

/** Creates the pdf_extract tool. */
export function pdfExtractTool(deps: FileToolDependencies): Tool {
  const defaults = deps.config.tools.pdf;
  return defineTool({
    name: "pdf_extract",
    description: "Extract a PDF's metadata and the text of its first/last pages",
    keywords: ["pdf", "document", "read", "page", "extract", "invoice", "paper", "book"],
    input: z.object({
      path: z.string().min(1),
      first: z.number().int().min(0).max(50).optional().describe("First pages to read"),
      last: z.number().int().min(0).max(50).optional().describe("Last pages to read"),
    }),
    run: async ({ path, first, last }) => {
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
        if (error instanceof PathChangedError) {
          return refused(`Cannot read ${shown}: ${error.message}.`);
        }
        return failed(`Cannot read ${shown}: ${describeFsError(error)}`);
      }
      if (!new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF")) {
        return failed(`${shown} is not a PDF (no %PDF header).`);
      }
      const mupdf = await loadMupdf();
      let document: InstanceType<Mupdf["Document"]>;
      let pageCount: number;
      try {
        document = mupdf.Document.openDocument(bytes, "application/pdf");
        if (document.needsPassword()) {
          return failed(`${shown} is encrypted (password-protected); its text cannot be read.`);
        }
        pageCount = document.countPages();
      } catch (error) {
        return failed(`${shown} is a broken PDF: ${firstLine(error)}.`);
      }
      const pages = selectPages(
        pageCount,
        first ?? defaults.first_pages,
        last ?? defaults.last_pages,
      );
      const lines = [
        `${shown}: ${pageCount} page${pageCount === 1 ? "" : "s"}, ${
          document.getMetaData("format") ?? "PDF"
        }`,
      ];
      const metadata = metadataKeys
        .map((key) => [key, document.getMetaData(`info:${key}`)?.trim()] as const)
        .filter(([, value]) => value)
        .map(([key, value]) => `${key}: ${value!.slice(0, 200)}`);
      const created = pdfDate(document.getMetaData("info:CreationDate"));
      if (created) metadata.push(`Created: ${created}`);
      if (metadata.length) lines.push(metadata.join("; "));
      const imageOnly: number[] = [];
      for (const index of pages) {
        lines.push(`--- page ${index + 1} ---`);
        try {
          const page = document.loadPage(index);
          const structured = page.toStructuredText("preserve-images");
          let images = 0;
          structured.walk({ onImageBlock: () => void images++ });
          const text = structured.asText().replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n")
            .trim();
          if (text) {
            lines.push(
              text.length > maxPageChars
                ? `${text.slice(0, maxPageChars)}\n[page cut: ${
                  text.length - maxPageChars
                } more characters]`
                : text,
            );
          } else if (images) {
            imageOnly.push(index + 1);
            lines.push("[image-only page: no text layer; needs a vision model]");
          } else lines.push("[blank page]");
        } catch (error) {
          lines.push(`[page cannot be read: ${firstLine(error)}]`);
        }
      }
      const skipped = pageCount - pages.length;
      if (skipped > 0) {
        lines.push(`[${skipped} other pages not extracted; use first/last for more]`);
      }
      if (imageOnly.length && imageOnly.length === pages.length) {
        lines.push("[no text layer on the extracted pages: probably a scan]");
      }
      return lines.join("\n");
    },
  });
}

/** The zero-based page indexes of the first `first` and last `last` pages, in order. */
export function selectPages(count: number, first: number, last: number): number[] {
  const chosen = new Set<number>();
  for (let index = 0; index < Math.min(first, count); index++) chosen.add(index);
  for (let index = Math.max(0, count - last); index < count; index++) chosen.add(index);
  return [...chosen].sort((a, b) => a - b);
}

/** "D:20261122091500Z" → "2026-11-22 09:15". */
export function pdfDate(value: string | undefined): string | undefined {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(value ?? "");
  if (!match) return undefined;
  const [, year, month = "01", day = "01", hour, minute] = match;
  return `${year}-${month}-${day}${hour ? ` ${hour}:${minute ?? "00"}` : ""}`;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
