/**
 * Replaces a file with a new version written beside it, atomically: the new bytes go to a
 * temporary file in the same folder, are flushed, and are renamed over the original only if the
 * original is still the file that was read. The original is kept for undo in the journal folder:
 * hard-linked (no copy, whatever its size), or copied where a hard link cannot be made.
 */
import { basename, dirname, join } from "node:path";
import { PathChangedError } from "../adapters/os/checked_open.ts";

/** The original's state when it was read. */
export interface ReplacedState {
  size: number;
  mtimeMs: number;
  mode?: number;
}

/** What replacing did: the saved original's name in `backupFolder`, when one was kept. */
export interface Replacement {
  before: ReplacedState;
  backup?: string;
}

/** Thrown when the original changed while the new version was being written. */
export class ChangedMeanwhileError extends Error {
  override name = "ChangedMeanwhileError";
}

/**
 * Writes `produce`'s output beside `target` (a real path the guard allowed for writing) and
 * renames it over `target`. `source` is the checked, open original; `produce` reads it and writes
 * the new version, returning false (nothing is replaced) or true. The temporary file is removed on
 * every failure.
 */
export async function replaceFile(
  target: string,
  source: Deno.FsFile,
  produce: (input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>) => Promise<
    boolean
  >,
  options: { backupFolder?: string } = {},
): Promise<Replacement | undefined> {
  const info = await source.stat();
  const before = {
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? 0,
    mode: info.mode === null ? undefined : info.mode & 0o777,
  };
  const temp = join(dirname(target), `.${basename(target)}.${crypto.randomUUID()}.tmp`);
  const output = await Deno.open(temp, {
    write: true,
    createNew: true,
    mode: before.mode ?? 0o644,
  });
  let renamed = false;
  try {
    if ((await Deno.realPath(temp)) !== temp) {
      output.close();
      throw new PathChangedError("its folder changed after the check");
    }
    if (!(await produce(source.readable, output.writable))) return undefined;
    using flushed = await Deno.open(temp, { read: true });
    await flushed.syncData();
    const now = await Deno.lstat(target);
    if (
      !now.isFile || now.ino !== info.ino || now.size !== info.size ||
      now.mtime?.getTime() !== info.mtime?.getTime()
    ) {
      throw new ChangedMeanwhileError("it changed while its new version was written");
    }
    const backup = options.backupFolder
      ? await keepOriginal(target, options.backupFolder)
      : undefined;
    await Deno.rename(temp, target);
    renamed = true;
    return { before, backup };
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
