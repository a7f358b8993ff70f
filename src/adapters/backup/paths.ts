/** File helpers of backup and restore. */

/** Removes a file or folder tree if present. */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* already gone */ }
}
