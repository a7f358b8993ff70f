/**
 * File system questions that answer instead of throwing: is anything at a path, where a program is
 * on PATH; and removal when present (is it a file or a folder, its real path:
 * `config/quiet_stat.ts`).
 */
import { join } from "node:path";
import { isFile } from "../../config/quiet_stat.ts";

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

/** `program` in the PATH folders of `env` (absolute folders only), or undefined. */
export function findOnPath(
  program: string,
  env: Record<string, string | undefined>,
): string | undefined {
  for (const folder of (env.PATH ?? "").split(":")) {
    if (!folder.startsWith("/")) continue;
    const candidate = join(folder, program);
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}
