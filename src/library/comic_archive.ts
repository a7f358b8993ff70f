/**
 * Port: reads comic archives (CBZ = zip, CBR = RAR) and writes ComicInfo.xml into a CBZ. The bytes
 * come from untrusted files (a zip bomb, a hostile RAR, entry names like `../../x`), so the
 * production implementation parses them in the killable, memory-bounded document subprocess.
 */
import type { ComicInfo, ComicInfoField } from "./comic_info.ts";
import type { DocumentFailure, MetadataWriteRequest } from "./document_outcomes.ts";

/** The archive formats a comic comes in. */
export type ComicFormat = "cbz" | "cbr";

/** Bounds every comic archive is read within. */
export const comicArchiveBounds = {
  /** Entries in one archive (a thousand-page comic is fine; a million-entry bomb is not). */
  maxEntries: 10_000,
  /** ComicInfo.xml larger than this (uncompressed) is not read. */
  maxComicInfoBytes: 1024 * 1024,
  /** The cover image decompressed for the vision model. */
  maxCoverBytes: 40 * 1024 * 1024,
  /**
   * An entry over 1 MiB declaring more than this many times its compressed size is a bomb sign
   * (images barely compress; deflate reaches ~1000:1 on zeros).
   */
  maxRatio: 100,
  /** Declared uncompressed size of all entries together. */
  maxTotalBytes: 16 * 1024 * 1024 * 1024,
};

/** What is wrong with an archive (it is still described; writing refuses these). */
export interface ArchiveWarnings {
  /** Entry names with `..`, an absolute path, a drive letter, NUL or control characters. */
  unsafeNames: string[];
  /** Archives inside the archive (never opened). */
  nestedArchives: string[];
  /** Entries whose declared or actual sizes look like a decompression bomb. */
  bombEntries: string[];
  /** Encrypted entries (their content cannot be read). */
  encrypted: number;
}

/** What a comic archive holds. */
export interface ComicContents {
  format: ComicFormat;
  /** Image entries in reading order (natural sort: 2 before 10). */
  pages: string[];
  /** Entries that are neither pages nor ComicInfo.xml (bounded list). */
  otherEntries: number;
  /** ComicInfo.xml's fields, when the archive has one that parses. */
  info?: ComicInfo;
  /** Why ComicInfo.xml could not be read (too large, a DTD, broken XML). */
  infoProblem?: string;
  /** The entry used as the cover (ComicInfo's FrontCover page, else the first page). */
  cover?: string;
  /** Base64 PNG of the cover (≤ 1600 px, bounded), when asked for and it could be rendered. */
  coverPng?: string;
  warnings: ArchiveWarnings;
}

/** The outcome of reading an archive. */
export type ComicReadResult =
  | { status: "ok"; contents: ComicContents }
  | DocumentFailure;

/** One read request: the archive as a stream of bytes (the caller opened and checked the file). */
export interface ComicReadRequest {
  format: ComicFormat;
  input: ReadableStream<Uint8Array>;
  /** The file's size (bounds the subprocess's memory). */
  size: number;
  /** Render the cover to PNG for a vision model. */
  renderCover?: boolean;
  signal?: AbortSignal;
}

/** One write request: a CBZ's bytes in, a new CBZ with the given ComicInfo.xml fields out. */
export type ComicWriteRequest = MetadataWriteRequest<ComicInfoField>;

/** The outcome of writing: the fields now in the new archive, or why nothing was written. */
export type ComicWriteResult =
  | { status: "ok"; info: ComicInfo; before?: ComicInfo; bytes: number }
  | { status: "refused"; message: string }
  | DocumentFailure;

/** Port: comic archives. Never throws; failures are results. */
export interface ComicArchives {
  read(request: ComicReadRequest): Promise<ComicReadResult>;
  writeInfo(request: ComicWriteRequest): Promise<ComicWriteResult>;
}

/** The comic format of a file name, or undefined (`.cbz`/`.zip` → cbz, `.cbr`/`.rar` → cbr). */
export function comicFormatOf(path: string): ComicFormat | undefined {
  const extension = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension === "cbz" || extension === "zip") return "cbz";
  if (extension === "cbr" || extension === "rar") return "cbr";
  return undefined;
}
