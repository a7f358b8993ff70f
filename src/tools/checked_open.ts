/** Opens a checked path and proves the opened file is the one that was checked. */
/** Thrown when a path changed (e.g. became a symlink) between the check and the open. */
export class PathChangedError extends Error {}

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Opens `realPath` (already approved by the path guard) for reading. Refuses when it is now a
 * symlink, or when the opened file is not the file at the real path (a swap during the open).
 */
export async function openCheckedForRead(realPath: string): Promise<Deno.FsFile> {
  const before = await Deno.lstat(realPath);
  if (before.isSymlink) throw new PathChangedError("it became a symbolic link after the check");
  const file = await Deno.open(realPath, { read: true });
  try {
    const opened = await file.stat();
    const now = await Deno.realPath(realPath);
    const after = await Deno.lstat(realPath);
    if (now !== realPath || !sameFile(opened, after) || !sameFile(before, opened)) {
      throw new PathChangedError("it changed while being opened");
    }
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
