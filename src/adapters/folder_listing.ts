/**
 * What a watched folder holds, read from the file system: which names count (a glob, partial
 * downloads left out), a file's fingerprint, and a listing that hands out matching paths a chunk
 * at a time and lets the event loop run between chunks (so the OS events of a busy folder keep
 * being read while a 100,000-file folder is listed).
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { join } from "node:path";
import type { SeenFile } from "../sources/watched_folders.ts";
import { folderEntries } from "../config/quiet_stat.ts";

/** Partial or temporary files that are not final yet (browsers, rsync, editors). */
export function isTemporaryName(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") ||
    /\.(crdownload|part|partial|download|tmp|temp|swp)$/i.test(name);
}

/** A file-name glob (`*`, `?`, `[abc]`, `[!abc]`, `{a,b}`) as a case-insensitive RegExp (npm picomatch). */
export function globToRegExp(pattern: string): RegExp {
  return picomatch.makeRe(pattern.replaceAll("[!", "[^"), { nocase: true, dot: true });
}

/** A regular file's fingerprint, or undefined when it is gone or not a file. */
export function statFile(path: string): SeenFile | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return undefined;
    return { path, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  } catch {
    return undefined;
  }
}

/** A folder's identity (device and inode): it changes when the folder is replaced. */
export function folderIdentity(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Lets timers and I/O callbacks (the OS watcher's events) run before the next chunk. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The paths of matching, final files under `folder` (recursing when asked; linked folders are
 * not followed, a link to a file is listed), `chunk` at a time, yielding to the event loop
 * between chunks. Names only: nothing is stat'ed here.
 */
export async function* listMatchingFiles(
  folder: string,
  options: { recursive: boolean; matcher: RegExp; chunk?: number },
): AsyncGenerator<string[]> {
  const size = options.chunk ?? 2_000;
  const folders = [folder];
  let paths: string[] = [];
  while (folders.length) {
    const current = folders.pop()!;
    const entries = folderEntries(current); // gone or unreadable meanwhile
    for (const entry of entries) {
      if (entry.isDirectory) {
        if (options.recursive) folders.push(join(current, entry.name));
        continue;
      }
      if (isTemporaryName(entry.name) || !options.matcher.test(entry.name)) continue;
      paths.push(join(current, entry.name));
      if (paths.length >= size) {
        yield paths;
        paths = [];
        await yieldToEventLoop();
      }
    }
  }
  if (paths.length) yield paths;
}
