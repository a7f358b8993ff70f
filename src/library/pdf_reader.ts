/**
 * Port: reads a PDF's page count, metadata and the text of chosen pages. The bytes come from an
 * untrusted file, so an implementation must bound time and memory (the production one runs MuPDF
 * in a killable subprocess, src/adapters/pdf/).
 */
import type { DocumentFailure, MetadataWriteRequest } from "./document_outcomes.ts";

/** What to extract from one PDF. */
export interface PdfReadRequest {
  bytes: Uint8Array;
  /** How many pages to read from the start and from the end. */
  first: number;
  last: number;
  /** Page text longer than this is cut (the rest is counted in `cutChars`). */
  maxPageChars: number;
  /** Aborting stops the extraction (the caller gave up). */
  signal?: AbortSignal;
  /** Image-only pages rendered to PNG for a vision model, at most this many (default 0). */
  renderImagePages?: number;
}

/** Bounds of a rendered page image: the longer side in pixels, and the PNG's size. */
export const pageImageBounds = { maxSidePixels: 1600, maxPngBytes: 1_500_000 };

/** One extracted page. */
export interface PdfPageText {
  /** One-based page number. */
  number: number;
  /** Text with trailing blanks and runs of blank lines squeezed, trimmed, maybe cut. */
  text: string;
  /** Characters cut from the end of `text`. */
  cutChars: number;
  /** Image blocks on the page (text empty and images > 0: a scan). */
  images: number;
  /** Set when this page could not be read. */
  error?: string;
  /** Base64 PNG of an image-only page, when rendering was asked for and fit the bounds. */
  png?: string;
}

/** What a PDF reader found. */
export interface PdfContents {
  pageCount: number;
  /** E.g. "PDF 1.7". */
  format: string;
  /** Document info entries that are set (Title, Author, …, CreationDate), each ≤ 200 chars. */
  metadata: Record<string, string>;
  pages: PdfPageText[];
}

/** The outcome of reading one PDF. */
export type PdfReadResult =
  | { status: "ok"; contents: PdfContents }
  | { status: "encrypted" }
  | DocumentFailure;

/** Port: extracts text and metadata from PDF bytes. Never throws; failures are results. */
export interface PdfReader {
  read(request: PdfReadRequest): Promise<PdfReadResult>;
}

/** The zero-based page indexes of the first `first` and last `last` pages, in order. */
export function selectPages(count: number, first: number, last: number): number[] {
  const chosen = new Set<number>();
  for (let index = 0; index < Math.min(first, count); index++) chosen.add(index);
  for (let index = Math.max(0, count - last); index < count; index++) chosen.add(index);
  return [...chosen].sort((a, b) => a - b);
}

/** PDF Info keys Radar writes (the ones file managers and search show). */
export const pdfInfoKeys = ["Title", "Author", "Subject", "Keywords"] as const;

/** One PDF Info key Radar writes. */
export type PdfInfoKey = typeof pdfInfoKeys[number];

/**
 * Writes PDF Info entries into a new copy of a PDF (the original bytes plus an update); null or ""
 * removes an entry.
 */
export type PdfInfoWriteRequest = MetadataWriteRequest<PdfInfoKey>;

/** The outcome of writing PDF Info. */
export type PdfInfoWriteResult =
  | { status: "ok"; before: Record<string, string>; after: Record<string, string>; bytes: number }
  | { status: "encrypted" }
  | DocumentFailure;

/** Port: writes PDF Info. Never throws; failures are results. */
export interface PdfInfoWriter {
  writeInfo(request: PdfInfoWriteRequest): Promise<PdfInfoWriteResult>;
}
