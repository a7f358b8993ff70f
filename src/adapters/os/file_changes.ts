/**
 * File changes that never overwrite, and the states the action journal records: a move is a hard
 * link plus an unlink (the link fails when the name exists, so a file appearing meanwhile is never
 * replaced); across file systems, or where links are not supported, a copy into a file opened with
 * createNew, synced, then the source removed.
 */
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { PathChangedError } from "./checked_open.ts";
import { failed, refused, type ToolResult } from "../../core/tool.ts";

/** A file's state as the action journal records it. */
export interface FileState {
  size: number;
  /** Modification time in milliseconds (undo refuses when the file changed since). */
  mtimeMs: number;
  /** SHA-256 of the content (hex), when it was small enough to hash. */
  sha256?: string;
}

/** Files larger than this are recorded by size and time, without a content hash. */
export const maxHashedBytes = 512 * 1024 * 1024;

/** Thrown when the target name is taken (nothing was changed). */
export class TargetExistsError extends Error {}

/**
 * Creates a temp file beside `target` for its new version: a random name opened with createNew
 * (never another file), refused (and removed) when its folder is no longer the checked one.
 */
export async function openTempBeside(
  target: string,
  mode?: number,
): Promise<{ temp: string; file: Deno.FsFile }> {
  const temp = join(dirname(target), `.${basename(target)}.${crypto.randomUUID()}.tmp`);
  const file = await Deno.open(temp, { write: true, createNew: true, mode: mode ?? 0o644 });
  try {
    if ((await Deno.realPath(temp)) !== temp) {
      throw new PathChangedError("its folder changed after the check");
    }
  } catch (error) {
    file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return { temp, file };
}

/** The state of a regular file (hashed when not too large). */
export async function fileState(path: string): Promise<FileState> {
  const info = await Deno.stat(path);
  const state: FileState = { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  if (info.size <= maxHashedBytes) state.sha256 = await sha256File(path);
  return state;
}

/** True when the file at `path` is still what `state` recorded (content, else size and time). */
export async function unchangedSince(path: string, state: FileState): Promise<boolean> {
  let now: FileState;
  try {
    now = await fileState(path);
  } catch {
    return false;
  }
  if (now.size !== state.size) return false;
  return state.sha256 && now.sha256 ? now.sha256 === state.sha256 : now.mtimeMs === state.mtimeMs;
}

/** The SHA-256 of a file's content, hex, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path, { read: true });
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

/** Creates the missing folders of `folder`; returns those it created, outermost first. */
export async function createFolders(folder: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = folder;; current = dirname(current)) {
    try {
      const info = await Deno.lstat(current);
      if (!info.isDirectory) throw new Deno.errors.NotADirectory(`${current} is not a folder`);
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      missing.unshift(current);
      if (dirname(current) === current) break;
    }
  }
  for (const path of missing) {
    try {
      await Deno.mkdir(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  return missing;
}

/** Removes the folders (innermost first) that are empty now; returns those removed. */
export async function removeEmptyFolders(folders: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of [...folders].reverse()) {
    try {
      await Deno.remove(folder);
      removed.push(folder);
    } catch { /* not empty, or gone: leave it */ }
  }
  return removed;
}

/**
 * Moves (or copies) the regular file `from` to `to`, never replacing an existing `to`. `source` is
 * the opened source (checked by the caller), used when the content has to be copied.
 */
export async function transferWithoutOverwrite(
  from: string,
  to: string,
  options: { copy: boolean; source: Deno.FsFile; mode?: number },
): Promise<void> {
  if (!options.copy) {
    try {
      await Deno.link(from, to);
      await Deno.remove(from);
      return;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) throw new TargetExistsError(to);
      if (!linkUnsupported(error)) throw error;
    }
  }
  await copyInto(to, options.source, options.mode);
  if (!options.copy) await Deno.remove(from);
}

/** Copies an open file into a new file `to` (createNew: a taken name fails, nothing replaced). */
async function copyInto(to: string, source: Deno.FsFile, mode?: number): Promise<void> {
  let target: Deno.FsFile;
  try {
    target = await Deno.open(to, { write: true, createNew: true, mode: mode ?? 0o644 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw new TargetExistsError(to);
    throw error;
  }
  try {
    await source.seek(0, Deno.SeekMode.Start);
    await copyContent(source, target);
    await target.sync();
    target.close();
  } catch (error) {
    target.close();
    await Deno.remove(to).catch(() => {});
    throw error;
  }
}

/** Copies the rest of `source` into `target` (both stay open); returns the bytes copied. */
export async function copyContent(source: Deno.FsFile, target: Deno.FsFile): Promise<number> {
  const buffer = new Uint8Array(256 * 1024);
  let copied = 0;
  for (let count = await source.read(buffer); count !== null; count = await source.read(buffer)) {
    await writeAll(target, buffer.subarray(0, count));
    copied += count;
  }
  return copied;
}

/** Writes all of `data` (one write may take only part of it). */
export async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) offset += await file.write(data.subarray(offset));
}

/** A link that failed because of the file system (another device, no hard links), not the names. */
function linkUnsupported(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "EXDEV" || code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" ||
    code === "EMLINK" || /cross-device|not supported|operation not permitted/i.test(
      error instanceof Error ? error.message : "",
    );
}

/**
 * Writes `prefix` (an open file, copied as a stream) and `data` to a new temp file beside
 * `target`, syncs it, then renames it over `target`: a crash leaves the old file intact. The
 * temp name is random and created with createNew, so it never clobbers another file, and it is
 * removed when anything fails. Returns the bytes written.
 */
export async function writeAtomically(
  target: string,
  data: Uint8Array,
  mode?: number,
  prefix?: Deno.FsFile,
): Promise<number> {
  const { temp, file } = await openTempBeside(target, mode);
  let written = 0;
  try {
    if (prefix) written += await copyContent(prefix, file);
    await writeAll(file, data);
    written += data.length;
    await file.sync();
  } catch (error) {
    file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  file.close();
  try {
    if (mode !== undefined) await Deno.chmod(temp, mode);
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return written;
}

/** One readable line for a file-system error. */
export function describeFsError(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "no such file or folder.";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied.";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder.";
  if (error instanceof Deno.errors.NotADirectory) return "a parent is not a folder.";
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split("\n")[0]}.`;
}

/**
 * A file-system failure as the result, "Cannot <action> <shown>: …": refused when the path
 * changed after its check (a link swapped in), otherwise failed with `describeFsError`'s line.
 */
export function fileFailure(action: string, shown: string, error: unknown): ToolResult {
  if (error instanceof PathChangedError) {
    return refused(`Cannot ${action} ${shown}: ${error.message}.`);
  }
  return failed(`Cannot ${action} ${shown}: ${describeFsError(error)}`);
}
