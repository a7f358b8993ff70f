/** Finds a program the way a shell would, in the PATH folders of an environment. */
import { join } from "node:path";

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
