/**
 * The comic half of the document subprocess: reads a CBZ or CBR (pages, ComicInfo.xml, the cover
 * rendered to a bounded PNG by MuPDF) and writes ComicInfo.xml into a CBZ. The archive's kind is
 * decided by its first bytes, not its name (a `.cbr` is often a zip).
 */
import {
  comicArchiveBounds,
  type ComicContents,
  type ComicFormat,
  type ComicReadResult,
} from "../../library/comic_archive.ts";
import type { ComicInfoField } from "../../library/comic_info.ts";
import { loadXmlParser, parseComicInfoXml, type ParsedComicInfo } from "./comic_info_xml.ts";
import { loadUnrar, openRar, rarComicInfoName, readRarEntry } from "./rar_comic.ts";
import { classifyEntries } from "./comic_entries.ts";
import {
  loadZip,
  openZip,
  readZipComicInfo,
  readZipEntry,
  rewriteZipComicInfo,
  zipEntryNamed,
  type ZipRewrite,
} from "./zip_comic.ts";
import { firstLine } from "../../core/errors.ts";

type Mupdf = typeof import("mupdf");

/** What a comic request may need, loaded before the subprocess drops its permissions. */
export interface ComicModules {
  zip?: Awaited<ReturnType<typeof loadZip>>;
  unrar?: Awaited<ReturnType<typeof loadUnrar>>;
  mupdf?: Mupdf;
}

/** Loads the modules a request of `kind` needs. */
export async function loadComicModules(
  kind: "comic-read" | "comic-write",
  renderCover: boolean,
  loadMupdf: () => Promise<Mupdf>,
): Promise<ComicModules> {
  const zip = await loadZip();
  await loadXmlParser();
  if (kind === "comic-write") return { zip };
  return { zip, unrar: await loadUnrar(), mupdf: renderCover ? await loadMupdf() : undefined };
}

/** The archive kind from its magic bytes. */
export function sniffFormat(bytes: Uint8Array): ComicFormat | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return "cbz";
  const rar = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07];
  if (rar.every((byte, index) => bytes[index] === byte)) return "cbr";
  return undefined;
}

/** Reads one comic archive. Never throws. */
export async function readComic(
  modules: ComicModules,
  bytes: Uint8Array,
  options: {
    renderCover: boolean;
    render: (mupdf: Mupdf, image: Uint8Array, name: string) => string | undefined;
  },
): Promise<ComicReadResult> {
  const format = sniffFormat(bytes);
  if (!format) return { status: "broken", message: "not a zip or RAR archive" };
  try {
    let classified;
    let parsed: { parsed?: ParsedComicInfo; problem?: string };
    let readEntry: (name: string, limit: number) => Promise<Uint8Array>;
    if (format === "cbz") {
      const opened = await openZip(modules.zip!, bytes);
      classified = classifyEntries(opened.summaries, comicArchiveBounds);
      parsed = await readZipComicInfo(opened);
      readEntry = (name, limit) => readZipEntry(zipEntryNamed(opened, name)!, limit);
    } else {
      const opened = await openRar(modules.unrar!, bytes);
      classified = classifyEntries(opened.summaries, comicArchiveBounds);
      const infoName = rarComicInfoName(opened);
      parsed = {};
      if (infoName) {
        try {
          const xml = await readRarEntry(opened, infoName, comicArchiveBounds.maxComicInfoBytes);
          parsed = { parsed: parseComicInfoXml(new TextDecoder().decode(xml)) };
        } catch (error) {
          parsed = { problem: firstLine(error, 300) };
        }
      }
      readEntry = (name, limit) => readRarEntry(opened, name, limit);
    }
    const coverIndex = parsed.parsed?.frontCoverIndex;
    const cover = classified.pages[coverIndex ?? 0] ?? classified.pages[0];
    const contents: ComicContents = {
      format,
      pages: classified.pages,
      otherEntries: classified.others,
      info: parsed.parsed?.info,
      infoProblem: parsed.problem,
      cover,
      warnings: classified.warnings,
    };
    if (options.renderCover && cover && modules.mupdf) {
      try {
        const image = await readEntry(cover, comicArchiveBounds.maxCoverBytes);
        contents.coverPng = options.render(modules.mupdf, image, cover);
      } catch { /* no cover image: the tool says so */ }
    }
    return { status: "ok", contents };
  } catch (error) {
    return { status: "broken", message: firstLine(error, 300) };
  }
}

/** Writes ComicInfo.xml into a CBZ (a RAR is never written). Never throws. */
export async function writeComic(
  modules: ComicModules,
  bytes: Uint8Array,
  changes: Partial<Record<ComicInfoField, string | null>>,
): Promise<ZipRewrite | { ok: false; broken: string }> {
  const format = sniffFormat(bytes);
  if (format !== "cbz") {
    return format === "cbr"
      ? { ok: false, refused: "It is a RAR archive (CBR): Radar never rewrites one." }
      : { ok: false, broken: "not a zip archive" };
  }
  try {
    return await rewriteZipComicInfo(modules.zip!, bytes, changes);
  } catch (error) {
    return { ok: false, broken: firstLine(error, 300) };
  }
}
