/** Opens a checked path and proves the opened file is the one that was checked. */
import type { PathAccess } from "./path_guard.ts";

/** Thrown when a path changed (e.g. became a symlink) between the check and the open. */
export class PathChangedError extends Error {}

/** The guard's hard-link check (PathGuard implements it). */
export interface HardLinkCheck {
  hardLinkReason(opened: Deno.FileInfo, access: PathAccess): string | undefined;
}

/** Options of openCheckedForRead: the guard for hard links, and hooks that let tests race. */
export interface CheckedOpenOptions {
  guard?: HardLinkCheck;
  /** Runs between the first lstat and the open (tests swap the file here). */
  beforeOpen?: () => Promise<void> | void;
  /** Runs right after the open, before the re-checks (tests swap it back here). */
  afterOpen?: () => Promise<void> | void;
}

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Opens `realPath` (already approved by the path guard) for reading. Refuses when it is now a
 * symlink, when the opened file is not the file at the real path (a swap during the open), or
 * when it is a hard link to a protected file.
 */
export async function openCheckedForRead(
  realPath: string,
  options: CheckedOpenOptions = {},
): Promise<Deno.FsFile> {
  const before = await Deno.lstat(realPath);
  if (before.isSymlink) throw new PathChangedError("it became a symbolic link after the check");
  // A FIFO or device swapped in after the caller's stat would block the open or never end.
  if (!before.isFile) throw new PathChangedError("it is no longer a regular file");
  await options.beforeOpen?.();
  const file = await Deno.open(realPath, { read: true });
  try {
    await options.afterOpen?.();
    const opened = await file.stat();
    const now = await Deno.realPath(realPath);
    const after = await Deno.lstat(realPath);
    if (now !== realPath || !sameFile(opened, after) || !sameFile(before, opened)) {
      throw new PathChangedError("it changed while being opened");
    }
    const hardLink = options.guard?.hardLinkReason(opened, "read");
    if (hardLink) throw new PathChangedError(hardLink);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/** Verifies that a folder about to receive a file is still the approved real folder. */
export async function assertFolderUnchanged(realFolder: string): Promise<void> {
  const now = await Deno.realPath(realFolder);
  if (now !== realFolder) throw new PathChangedError("its folder changed after the check");
}
