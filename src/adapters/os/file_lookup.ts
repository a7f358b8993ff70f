/** Finding things on disk: whether anything is at a path, and a program on PATH. */
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
