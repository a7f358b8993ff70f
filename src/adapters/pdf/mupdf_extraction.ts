/**
 * The MuPDF calls behind pdf_extract. Runs inside the PDF subprocess (pdf_extract_process.ts),
 * never in the daemon: a hostile PDF can make MuPDF spin or grow without end.
 */
import {
  pageImageBounds,
  type PdfPageText,
  type PdfReadResult,
  selectPages,
} from "../../library/pdf_reader.ts";
import { Buffer } from "node:buffer";
import { firstLine } from "../../core/errors.ts";

type Mupdf = typeof import("mupdf");

/** Document info keys reported as metadata. */
export const metadataKeys = [
  "Title",
  "Author",
  "Subject",
  "Keywords",
  "Creator",
  "Producer",
  "CreationDate",
];

const maxMetadataChars = 200;

/** Loads MuPDF's WASM (about 100–250 ms) with its log silenced. */
export async function loadMupdf(): Promise<Mupdf> {
  const module = await import("mupdf");
  module.setLog(null);
  return module;
}

/** What to extract (the request minus bytes and signal). */
export interface ExtractionOptions {
  first: number;
  last: number;
  maxPageChars: number;
  /** Image-only pages to render as PNG (the first ones found), 0 for none. */
  renderImagePages?: number;
}

/** Opens the PDF and extracts metadata and the chosen pages' text. Never throws. */
export function extractPdf(
  mupdf: Mupdf,
  bytes: Uint8Array,
  options: ExtractionOptions,
): PdfReadResult {
  let document: InstanceType<Mupdf["Document"]>;
  let pageCount: number;
  try {
    document = mupdf.Document.openDocument(bytes, "application/pdf");
    if (document.needsPassword()) return { status: "encrypted" };
    pageCount = document.countPages();
  } catch (error) {
    return { status: "broken", message: firstLine(error, 300) };
  }
  try {
    const metadata = infoOf(document);
    const pages = selectPages(pageCount, options.first, options.last)
      .map((index) => readPage(document, index, options.maxPageChars));
    let renders = options.renderImagePages ?? 0;
    for (const page of pages) {
      if (renders <= 0) break;
      if (page.error || page.text || !page.images) continue;
      renders--;
      const png = renderPage(mupdf, document, page.number - 1);
      if (png) page.png = png;
    }
    return {
      status: "ok",
      contents: {
        pageCount,
        format: (document.getMetaData("format") ?? "PDF").slice(0, maxMetadataChars),
        metadata,
        pages,
      },
    };
  } catch (error) {
    return { status: "broken", message: firstLine(error, 300) };
  }
}

function readPage(
  document: InstanceType<Mupdf["Document"]>,
  index: number,
  maxPageChars: number,
): PdfPageText {
  try {
    const structured = document.loadPage(index).toStructuredText("preserve-images");
    let images = 0;
    structured.walk({ onImageBlock: () => void images++ });
    const text = structured.asText().replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
    const cutChars = Math.max(0, text.length - maxPageChars);
    return { number: index + 1, text: text.slice(0, maxPageChars), cutChars, images };
  } catch (error) {
    return { number: index + 1, text: "", cutChars: 0, images: 0, error: firstLine(error, 300) };
  }
}

/**
 * A page as a PNG whose longer side is at most `maxSidePixels` (at most 2× the page's own
 * size), halved until it fits `maxPngBytes`; undefined when it cannot be rendered within them.
 */
function renderPage(
  mupdf: Mupdf,
  document: InstanceType<Mupdf["Document"]>,
  index: number,
): string | undefined {
  try {
    return renderLoadedPage(mupdf, document.loadPage(index));
  } catch { /* the page stays unread: the tool says so */ }
  return undefined;
}

/** Pixels an image may have to be decoded for rendering (a 100-megapixel "image bomb" is not). */
const maxImagePixels = 100_000_000;

/**
 * An image file (a comic's cover: JPEG, PNG, WebP, GIF, …) as a bounded PNG, like a scanned page;
 * undefined when MuPDF cannot read it or it is too large to decode.
 */
export function renderImage(mupdf: Mupdf, bytes: Uint8Array, name: string): string | undefined {
  try {
    const image = new mupdf.Image(bytes);
    if (image.getWidth() * image.getHeight() > maxImagePixels) return undefined;
    const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1] ?? "jpg";
    const document = mupdf.Document.openDocument(bytes, `cover.${extension.toLowerCase()}`);
    return renderLoadedPage(mupdf, document.loadPage(0));
  } catch {
    return undefined;
  }
}

function renderLoadedPage(
  mupdf: Mupdf,
  page: InstanceType<Mupdf["Page"]>,
): string | undefined {
  const [x0, y0, x1, y1] = page.getBounds();
  const side = Math.max(x1 - x0, y1 - y0, 1);
  let scale = Math.min(2, pageImageBounds.maxSidePixels / side);
  for (let attempt = 0; attempt < 3; attempt++, scale /= 2) {
    const pixmap = page.toPixmap(
      mupdf.Matrix.scale(scale, scale),
      mupdf.ColorSpace.DeviceRGB,
      false,
      true,
    );
    const png = pixmap.asPNG();
    pixmap.destroy();
    if (png.byteLength <= pageImageBounds.maxPngBytes) return Buffer.from(png).toString("base64");
  }
  return undefined;
}

/** What writing PDF Info gave: the new file's bytes and the entries before and after. */
export type PdfInfoWrite =
  | {
    status: "ok";
    bytes: Uint8Array;
    before: Record<string, string>;
    after: Record<string, string>;
  }
  | { status: "encrypted" }
  | { status: "broken"; message: string };

/**
 * Sets (or, with null or "", removes) PDF Info entries and saves incrementally: the original bytes
 * stay as they were and the change is appended, so signatures and structure are untouched.
 */
export function setPdfInfo(
  mupdf: Mupdf,
  bytes: Uint8Array,
  changes: Partial<Record<string, string | null>>,
): PdfInfoWrite {
  try {
    const document = mupdf.Document.openDocument(bytes, "application/pdf");
    if (document.needsPassword()) return { status: "encrypted" };
    const pdf = document.asPDF();
    if (!pdf) return { status: "broken", message: "not a PDF" };
    const before = infoOf(document);
    for (const [key, value] of Object.entries(changes)) {
      pdf.setMetaData(`info:${key}`, value ?? "");
    }
    const saved = pdf.saveToBuffer("incremental").asUint8Array().slice();
    const after = infoOf(mupdf.Document.openDocument(saved, "application/pdf"));
    return { status: "ok", bytes: saved, before, after };
  } catch (error) {
    return { status: "broken", message: firstLine(error, 300) };
  }
}

function infoOf(document: InstanceType<Mupdf["Document"]>): Record<string, string> {
  const info: Record<string, string> = {};
  for (const key of metadataKeys) {
    const value = document.getMetaData(`info:${key}`)?.trim();
    if (value) info[key] = value.slice(0, maxMetadataChars);
  }
  return info;
}
