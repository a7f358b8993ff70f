/**
 * Replaces a file with a new version written beside it, atomically: the new bytes go to a
 * temporary file in the same folder, are flushed, and are renamed over the original only if the
 * original is still the file that was read. Or files the new version at another place (tag and
 * move as one change): it is linked (or copied) there, never over an existing file, and only then
 * is the original removed. The original is kept for undo in the journal folder: hard-linked (no
 * copy, whatever its size), or copied where a hard link cannot be made.
 */
import { dirname, join } from "node:path";
import {
  createFolders,
  type FileState,
  openTempBeside,
  transferWithoutOverwrite,
} from "./file_changes.ts";

/** What replacing did. */
export interface Replacement {
  /** The original's state when it was read. */
  before: FileState;
  /** The saved original's name in the backup folder, when one was kept. */
  backup?: string;
  /** Where the new version is: the original's path, or the place it was filed at. */
  path: string;
  /** Folders created for the new place, outermost first. */
  createdFolders: string[];
}

/** Thrown when the original changed while the new version was being written. */
export class ChangedMeanwhileError extends Error {
  override name = "ChangedMeanwhileError";
}

/** Options of `replaceFile`. */
export interface ReplaceOptions {
  /** Where the original is kept for undo (absent: not kept). */
  backupFolder?: string;
  /**
   * Decides, once the new version is written, where it goes: a path (absolute, checked by the
   * caller; the original's own path replaces in place), or a refusal (nothing changes).
   */
  place?: () => Promise<{ path: string } | { refused: string }>;
}

/**
 * Writes `produce`'s output beside `target` (a real path the guard allowed for writing) and puts it
 * in place (see `ReplaceOptions.place`). `source` is the checked, open original; `produce` reads it
 * and writes the new version, returning false (nothing is replaced) or true. Answers the
 * replacement, a refusal from `place`, or undefined when `produce` declined. The temporary file is
 * removed on every path.
 */
export async function replaceFile(
  target: string,
  source: Deno.FsFile,
  produce: (input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>) => Promise<
    boolean
  >,
  options: ReplaceOptions = {},
): Promise<Replacement | { refused: string } | undefined> {
  const info = await source.stat();
  const before: FileState = { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  const mode = info.mode === null ? undefined : info.mode & 0o777;
  const { temp, file: output } = await openTempBeside(target, mode);
  let renamed = false;
  try {
    if (!(await produce(source.readable, output.writable))) return undefined;
    using flushed = await Deno.open(temp, { read: true });
    await flushed.syncData();
    const placed = options.place ? await options.place() : { path: target };
    if ("refused" in placed) return placed;
    const assertUnchanged = async () => {
      const now = await Deno.lstat(target);
      if (
        !now.isFile || now.ino !== info.ino || now.size !== info.size ||
        now.mtime?.getTime() !== info.mtime?.getTime()
      ) {
        throw new ChangedMeanwhileError("it changed while its new version was written");
      }
    };
    await assertUnchanged();
    if (placed.path === target) {
      const backup = options.backupFolder
        ? await keepOriginal(target, options.backupFolder)
        : undefined;
      await Deno.rename(temp, target);
      renamed = true;
      return { before, backup, path: target, createdFolders: [] };
    }
    const createdFolders = await createFolders(dirname(placed.path));
    // Never over an existing file (a link or a createNew copy fails on a taken name).
    await transferWithoutOverwrite(temp, placed.path, { copy: false, source: flushed, mode });
    renamed = true;
    try {
      await assertUnchanged();
    } catch (error) {
      await Deno.remove(placed.path).catch(() => {});
      throw error;
    }
    const backup = options.backupFolder
      ? await keepOriginal(target, options.backupFolder)
      : undefined;
    await Deno.remove(target);
    return { before, backup, path: placed.path, createdFolders };
  } finally {
    try {
      output.close();
    } catch { /* closed by its stream */ }
    if (!renamed) await Deno.remove(temp).catch(() => {});
  }
}

/** Keeps the file at `path` as `<uuid>.before` in `folder`: a hard link, else a copy. */
async function keepOriginal(path: string, folder: string): Promise<string> {
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const name = `${crypto.randomUUID()}.before`;
  try {
    await Deno.link(path, join(folder, name));
  } catch {
    await Deno.copyFile(path, join(folder, name));
    await Deno.chmod(join(folder, name), 0o600);
  }
  return name;
}
