/** Where the `gh` CLI is: `github.gh_path` as a path, or found on PATH. */
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { findOnPath } from "../../adapters/os/quiet_fs.ts";

/** Where `gh` is, or undefined when it is not installed. */
export function findGh(
  ghPath: string,
  env: Record<string, string | undefined>,
): string | undefined {
  if (ghPath.includes("/")) return isAbsolute(ghPath) && existsSync(ghPath) ? ghPath : undefined;
  return findOnPath(ghPath, env);
}

/** Why GitHub is not available when gh is not found at `ghPath`. */
export function ghMissing(ghPath: string): string {
  return `the gh CLI is not installed (${ghPath} not found; https://cli.github.com)`;
}
