/**
 * What the names in a comic archive are: pages (images, in natural reading order), ComicInfo.xml,
 * nested archives, and names that are unsafe to extract (`../../x`, `/etc/x`, `C:\x`, NUL,
 * control characters). Pure; runs in the document subprocess and in tests.
 */
import type { ArchiveWarnings } from "../../library/comic_archive.ts";

const imageExtensions = /\.(jpe?g|png|gif|webp|avif|bmp|jxl|tiff?)$/i;
const archiveExtensions = /\.(zip|cbz|rar|cbr|7z|cb7|tar|cbt|gz|tgz|bz2|xz|zst)$/i;

/** True for a name that could leave the folder it is extracted into, or that hides characters. */
export function isUnsafeEntryName(name: string): boolean {
  // deno-lint-ignore no-control-regex
  if (!name || /[\u0000-\u001f\u007f]/.test(name)) return true;
  if (/^[\\/]/.test(name) || /^[a-z]:/i.test(name)) return true;
  return name.split(/[\\/]/).some((part) => part === "..");
}

/** True for the archive's ComicInfo.xml (at the root, any casing). */
export function isComicInfoName(name: string): boolean {
  return name.toLowerCase() === "comicinfo.xml";
}

/** True for an entry readers show as a page (an image, not macOS metadata or a hidden file). */
export function isPageName(name: string): boolean {
  if (!imageExtensions.test(name)) return false;
  const parts = name.split(/[\\/]/);
  return !parts.some((part) => part === "__MACOSX" || part.startsWith("."));
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Names in natural order: "page 2" before "page 10", folders before their later siblings. */
export function naturalSort(names: readonly string[]): string[] {
  return [...names].sort((left, right) => collator.compare(left, right) || (left < right ? -1 : 1));
}

/** One entry as a reader sees it. */
export interface EntrySummary {
  name: string;
  directory: boolean;
  compressedSize: number;
  uncompressedSize: number;
  encrypted: boolean;
}

/** The entries sorted into pages, ComicInfo.xml, others and warnings. */
export interface ClassifiedEntries {
  pages: string[];
  comicInfo?: EntrySummary;
  others: number;
  warnings: ArchiveWarnings;
}

const maxListedWarnings = 20;

/** Sorts entries (already bounded in number by the reader) and notes what is wrong with them. */
export function classifyEntries(
  entries: readonly EntrySummary[],
  bounds: { maxRatio: number; maxTotalBytes: number },
): ClassifiedEntries {
  const warnings: ArchiveWarnings = {
    unsafeNames: [],
    nestedArchives: [],
    bombEntries: [],
    encrypted: 0,
  };
  const note = (list: string[], name: string) => {
    if (list.length < maxListedWarnings) list.push(shownName(name));
  };
  const pages: string[] = [];
  let comicInfo: EntrySummary | undefined;
  let others = 0;
  let total = 0;
  for (const entry of entries) {
    if (entry.directory) continue;
    total += entry.uncompressedSize;
    if (entry.encrypted) warnings.encrypted++;
    if (isUnsafeEntryName(entry.name)) {
      note(warnings.unsafeNames, entry.name);
      continue;
    }
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (ratio > bounds.maxRatio && entry.uncompressedSize > 1024 * 1024) {
      note(warnings.bombEntries, entry.name);
      continue;
    }
    if (archiveExtensions.test(entry.name)) note(warnings.nestedArchives, entry.name);
    else if (isComicInfoName(entry.name)) comicInfo ??= entry;
    else if (isPageName(entry.name)) pages.push(entry.name);
    else others++;
  }
  if (total > bounds.maxTotalBytes) note(warnings.bombEntries, "(all entries together)");
  return { pages: naturalSort(pages), comicInfo, others, warnings };
}

/** A name as shown to the model: control characters visible, at most 120 characters. */
export function shownName(name: string): string {
  const visible = name.replace(
    // deno-lint-ignore no-control-regex
    /[\u0000-\u001f\u007f]/g,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return visible.length > 120 ? `${visible.slice(0, 117)}...` : visible;
}

/** True when the warnings forbid rewriting the archive. */
export function blocksRewrite(warnings: ArchiveWarnings): string | undefined {
  if (warnings.unsafeNames.length) {
    return `it has entries with unsafe names (${warnings.unsafeNames.slice(0, 3).join(", ")})`;
  }
  if (warnings.bombEntries.length) {
    return `it looks like a decompression bomb (${warnings.bombEntries.slice(0, 3).join(", ")})`;
  }
  if (warnings.encrypted) return "it has encrypted entries";
  return undefined;
}
