/** Whole-file replacement that a crash or a planted link cannot corrupt. */

/**
 * Writes `text` to `path` atomically: a new, unguessable temp file beside it (created, never
 * opened if something is already there, so a planted link is not followed), then a rename.
 * Owner-only by default. Throws like Deno.writeTextFileSync; the temp file never stays behind.
 */
export function writeTextFileAtomically(path: string, text: string, mode = 0o600): void {
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.writeTextFileSync(temporary, text, { mode, createNew: true });
    Deno.renameSync(temporary, path);
  } catch (error) {
    try {
      Deno.removeSync(temporary);
    } catch { /* never created */ }
    throw error;
  }
}
