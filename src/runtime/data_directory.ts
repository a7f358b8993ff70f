/** Creates the data directory with owner-only permissions. */
import { osErrorCode, RadarError } from "../core/errors.ts";

/** Ensures `path` exists as a directory readable only by its owner (0700). */
export function ensureDataDirectory(path: string): void {
  try {
    Deno.mkdirSync(path, { recursive: true, mode: 0o700 });
    if (Deno.build.os !== "windows") chmodUnlessReadOnly(path);
  } catch (error) {
    throw new RadarError(`Cannot create data directory ${path}: ${(error as Error).message}`, 1, {
      cause: error,
    });
  }
}

/** Makes `path` owner-only; on a read-only folder (or file system) Radar still reads. */
function chmodUnlessReadOnly(path: string): void {
  try {
    Deno.chmodSync(path, 0o700);
  } catch (error) {
    const readOnly = error instanceof Deno.errors.PermissionDenied ||
      osErrorCode(error) === "EROFS";
    if (!readOnly) throw error;
  }
}
