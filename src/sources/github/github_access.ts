/** Whether GitHub is usable here (enabled, gh installed), and its reader. */
import type { RadarConfig } from "../../config/schema.ts";
import type { GitHubLists } from "../../core/source_ports.ts";
import { GhCli } from "./gh_cli.ts";
import { findGh, ghMissing } from "./find_gh.ts";
import { GitHubReader } from "./github_reader.ts";

/** The reader, or why GitHub is not available. */
export function githubAccess(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): { reader?: GitHubReader; problem?: string } {
  const settings = config.github;
  if (!settings.enabled) return { problem: "off (github.enabled is false)" };
  const path = findGh(settings.gh_path, env);
  if (!path) return { problem: ghMissing(settings.gh_path) };
  return {
    reader: new GitHubReader(new GhCli(path, { env, timeoutMs: settings.timeout_seconds * 1000 })),
  };
}

/** The GitHub lists the `github` tool reads (none when gh is not available). */
export function githubReaderFor(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): GitHubLists | undefined {
  return githubAccess(config, env).reader;
}
