/**
 * CBZ (zip) archives through npm @zip.js/zip.js: listing within bounds, bounded extraction of
 * ComicInfo.xml and the cover, and a new archive with ComicInfo.xml set, the other entries copied
 * byte for byte (never decompressed). Runs in the document subprocess.
 */
import { comicArchiveBounds } from "../../library/comic_archive.ts";
import {
  applyComicInfoChanges,
  type ComicInfo,
  type ComicInfoField,
} from "../../library/comic_info.ts";
import {
  blocksRewrite,
  classifyEntries,
  type EntrySummary,
  isComicInfoName,
} from "./comic_entries.ts";
import { buildComicInfoXml, parseComicInfoXml, type ParsedComicInfo } from "./comic_info_xml.ts";
import { BoundedSink, TooLargeError } from "./bounded_sink.ts";
import { firstLine } from "../../core/errors.ts";

type ZipModule = typeof import("@zip.js/zip.js");
type ZipEntry = Awaited<ReturnType<InstanceType<ZipModule["ZipReader"]>["getEntries"]>>[number];

/** A CBZ opened for reading. */
export interface OpenedZip {
  entries: ZipEntry[];
  summaries: EntrySummary[];
}

/** Loads zip.js without web workers (the subprocess has no permission to start them). */
export async function loadZip(): Promise<ZipModule> {
  const zip = await import("@zip.js/zip.js");
  zip.configure({ useWebWorkers: false });
  return zip;
}

/** Lists a zip's entries, refusing more than `maxEntries`. */
export async function openZip(zip: ZipModule, bytes: Uint8Array): Promise<OpenedZip> {
  // Names are judged by classifyEntries (listed as unsafe, never extracted), not thrown on.
  const reader = new zip.ZipReader(new zip.Uint8ArrayReader(bytes), {
    filenameValidation: "tolerant",
  });
  const entries: ZipEntry[] = [];
  for await (const entry of reader.getEntriesGenerator()) {
    if (entries.length >= comicArchiveBounds.maxEntries) {
      throw new Error(`more than ${comicArchiveBounds.maxEntries} entries; not read`);
    }
    entries.push(entry);
  }
  const summaries = entries.map((entry) => ({
    name: entry.filename,
    directory: entry.directory,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    encrypted: entry.encrypted,
  }));
  return { entries, summaries };
}

/**
 * One entry's content, at most `limit` bytes and never more than it declared (a zip that lies
 * about its sizes is a bomb sign); checked against its CRC-32.
 */
export async function readZipEntry(entry: ZipEntry, limit: number): Promise<Uint8Array> {
  if (entry.directory || !("getData" in entry)) throw new Error("not a file");
  if (entry.uncompressedSize > limit) throw new TooLargeError(entry.uncompressedSize, limit);
  const sink = new BoundedSink(Math.min(limit, entry.uncompressedSize));
  await entry.getData!(sink.writable, { checkSignature: true });
  return sink.bytes();
}

/** The archive's ComicInfo.xml, parsed; or why it could not be. */
export async function readZipComicInfo(
  opened: OpenedZip,
): Promise<{ parsed?: ParsedComicInfo; problem?: string }> {
  const entry = opened.entries.find((item) => !item.directory && isComicInfoName(item.filename));
  if (!entry) return {};
  try {
    const bytes = await readZipEntry(entry, comicArchiveBounds.maxComicInfoBytes);
    return { parsed: parseComicInfoXml(new TextDecoder().decode(bytes)) };
  } catch (error) {
    return { problem: firstLine(error, 300) };
  }
}

/** The zip entry called `name`. */
export function zipEntryNamed(opened: OpenedZip, name: string): ZipEntry | undefined {
  return opened.entries.find((entry) => entry.filename === name);
}

/** The result of rewriting a CBZ. */
export type ZipRewrite =
  | { ok: true; bytes: Uint8Array; info: ComicInfo; before?: ComicInfo }
  | { ok: false; refused: string };

/**
 * A new CBZ: every entry but ComicInfo.xml copied as it is (compressed bytes, dates, attributes),
 * then ComicInfo.xml with `changes` applied to what the archive held (unknown elements kept).
 */
export async function rewriteZipComicInfo(
  zip: ZipModule,
  bytes: Uint8Array,
  changes: Partial<Record<ComicInfoField, string | null>>,
): Promise<ZipRewrite> {
  const opened = await openZip(zip, bytes);
  const classified = classifyEntries(opened.summaries, comicArchiveBounds);
  // Nested archives are copied as they are (never opened); unsafe names and bombs are refused.
  const blocked = blocksRewrite(classified.warnings);
  if (blocked) return { ok: false, refused: `The archive was not rewritten: ${blocked}.` };
  const existing = await readZipComicInfo(opened);
  if (existing.problem) {
    return { ok: false, refused: `Its ComicInfo.xml cannot be read (${existing.problem}).` };
  }
  const before = existing.parsed?.info;
  const info = applyComicInfoChanges(before ?? {}, changes);
  const writer = new zip.ZipWriter(new zip.Uint8ArrayWriter(), { keepOrder: true });
  await writer.appendZip(new zip.Uint8ArrayReader(bytes), {
    filter: (entry) => !isComicInfoName(entry.filename),
  });
  await writer.add(
    "ComicInfo.xml",
    new zip.TextReader(buildComicInfoXml(info, existing.parsed?.tree)),
  );
  const written = await writer.close();
  return { ok: true, bytes: written, info, before };
}
