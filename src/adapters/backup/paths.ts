/** File helpers of backup and restore. */

/** True when something (a file, folder or link, even a dangling one) is at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes a file or folder tree if present. */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* already gone */ }
}
