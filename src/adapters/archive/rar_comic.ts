/**
 * CBR (RAR) archives, read only, through npm node-unrar-js (the official unrar library compiled to
 * WASM: no native code). Headers are listed within the entry bound; only ComicInfo.xml and the
 * cover are extracted, each only when its declared size is within bounds. Runs in the document
 * subprocess, whose deadline and memory ceiling stop a hostile archive.
 */
import { comicArchiveBounds } from "../../library/comic_archive.ts";
import { type EntrySummary, isComicInfoName } from "./comic_entries.ts";

type UnrarModule = typeof import("node-unrar-js");
type Extractor = Awaited<ReturnType<UnrarModule["createExtractorFromData"]>>;

/** Loads node-unrar-js and instantiates its WASM (before the subprocess drops its permissions). */
export async function loadUnrar(): Promise<UnrarModule> {
  const unrar = await import("node-unrar-js");
  // The WASM module is a singleton: an empty archive instantiates it now.
  await unrar.createExtractorFromData({ data: new ArrayBuffer(0) }).catch(() => undefined);
  return unrar;
}

/** A RAR opened for reading. */
export interface OpenedRar {
  /** A fresh extractor (node-unrar-js reads an archive once per extractor). */
  extractor: () => Promise<Extractor>;
  summaries: EntrySummary[];
}

/** Lists a RAR's entries, refusing more than `maxEntries` and archives with encrypted headers. */
export async function openRar(unrar: UnrarModule, bytes: Uint8Array): Promise<OpenedRar> {
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const extractor = () => unrar.createExtractorFromData({ data: data as ArrayBuffer });
  const list = (await extractor()).getFileList();
  if (list.arcHeader.flags.headerEncrypted) throw new Error("the archive is password-protected");
  const summaries: EntrySummary[] = [];
  for (const header of list.fileHeaders) {
    if (summaries.length >= comicArchiveBounds.maxEntries) {
      throw new Error(`more than ${comicArchiveBounds.maxEntries} entries; not read`);
    }
    summaries.push({
      name: header.name,
      directory: header.flags.directory,
      compressedSize: header.packSize,
      uncompressedSize: header.unpSize,
      encrypted: header.flags.encrypted,
    });
  }
  return { extractor, summaries };
}

/**
 * One entry's content when it declares at most `limit` bytes (unrar writes no more than an entry
 * declares, and checks its CRC); undefined when it is missing or encrypted.
 */
export async function readRarEntry(
  opened: OpenedRar,
  name: string,
  limit: number,
): Promise<Uint8Array> {
  const summary = opened.summaries.find((entry) => entry.name === name && !entry.directory);
  if (!summary) throw new Error("no such entry");
  if (summary.encrypted) throw new Error("the entry is encrypted");
  if (summary.uncompressedSize > limit) {
    throw new Error(`an entry of ${summary.uncompressedSize} bytes is over the limit of ${limit}`);
  }
  const { files } = (await opened.extractor()).extract({ files: [name] });
  for (const file of files) {
    const content = file.extraction as Uint8Array | undefined;
    if (file.fileHeader.name !== name || !content) continue;
    if (content.length > limit) throw new Error("the entry is larger than it declared");
    return content;
  }
  throw new Error("the entry could not be extracted");
}

/** The RAR's ComicInfo.xml entry name, when it has one. */
export function rarComicInfoName(opened: OpenedRar): string | undefined {
  return opened.summaries.find((entry) => !entry.directory && isComicInfoName(entry.name))?.name;
}
