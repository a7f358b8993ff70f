/**
 * The library assembled once (`buildLibrary`, called by the composition root and `radar library
 * scan`): the document subprocess's readers and writers, PDFs and comic archives.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ComicArchives } from "./comic_archive.ts";
import type { PdfInfoWriter, PdfReader } from "./pdf_reader.ts";
import { createPdfReader } from "../adapters/pdf/subprocess_pdf_reader.ts";
import { SubprocessComicArchives } from "../adapters/archive/subprocess_comic_archives.ts";

/** PDF reading and Info writing, and comic archives, each in a fresh killable subprocess. */
export function buildLibrary(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): { pdfReader: PdfReader; pdfInfoWriter: PdfInfoWriter; comicArchives: ComicArchives } {
  const pdf = createPdfReader(config.tools.pdf, env);
  return {
    pdfReader: pdf,
    pdfInfoWriter: pdf,
    comicArchives: new SubprocessComicArchives({
      timeoutMs: config.tools.comics.timeout_seconds * 1000,
      env,
    }),
  };
}
