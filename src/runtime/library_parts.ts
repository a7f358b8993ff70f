/**
 * The library's readers and writers as the tools get them: ports whose first call loads the
 * library (its face and the document subprocess's adapters, at run time) and builds it once, so
 * a run that never reads a PDF or a comic does not load it.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ComicArchives, PdfInfoWriter, PdfReader } from "../library/mod.ts";
import { onFirstUse } from "./first_use.ts";

/** What `buildLibrary` returns, loaded on the first call of any of them. */
export interface LibraryParts {
  pdfReader: PdfReader;
  pdfInfoWriter: PdfInfoWriter;
  comicArchives: ComicArchives;
}

/** The library's ports, each loading and building the library on its first call. */
export function libraryOnFirstUse(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): LibraryParts {
  const library = onFirstUse(async () => (await libraryModule()).buildLibrary(config, env));
  return {
    pdfReader: { read: async (request) => (await library()).pdfReader.read(request) },
    pdfInfoWriter: {
      writeInfo: async (request) => (await library()).pdfInfoWriter.writeInfo(request),
    },
    comicArchives: {
      read: async (request) => (await library()).comicArchives.read(request),
      writeInfo: async (request) => (await library()).comicArchives.writeInfo(request),
    },
  };
}

/** The library's face, loaded on first use. */
function libraryModule(): Promise<typeof import("../library/mod.ts")> {
  return import(new URL("../library/mod.ts", import.meta.url).href);
}
