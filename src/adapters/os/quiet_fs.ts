/**
 * File system questions that answer instead of throwing: is anything (a file, a folder) at a path,
 * where a path really leads, where a program is on PATH; and removal when present.
 */
import { join } from "node:path";

/** True when something (a file, folder or link, even a dangling one) is at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** True when `path` is (or links to) a regular file. */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** True when `path` is (or links to) a folder. */
export function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The real path (links and `..` resolved), or undefined when nothing is there. */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** Removes a file or folder tree if present. */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* already gone */ }
}

/** `program` in the PATH folders of `env` (absolute folders only), or undefined. */
export function findOnPath(
  program: string,
  env: Record<string, string | undefined>,
): string | undefined {
  for (const folder of (env.PATH ?? "").split(":")) {
    if (!folder.startsWith("/")) continue;
    const candidate = join(folder, program);
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch { /* not here */ }
  }
  return undefined;
}
