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

/**
 * The gh that GitHub is read through (`github.enabled`, and gh found), or why GitHub is not
 * available: the one check behind the tool, the source's jobs and their health line.
 */
export function usableGh(
  settings: { enabled: boolean; gh_path: string },
  env: Record<string, string | undefined>,
): { path: string } | { problem: string } {
  if (!settings.enabled) return { problem: "off (github.enabled is false)" };
  const path = findGh(settings.gh_path, env);
  return path ? { path } : { problem: ghMissing(settings.gh_path) };
}
