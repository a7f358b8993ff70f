/** Whether GitHub is usable here (enabled, gh installed), and its reader. */
import type { RadarConfig } from "../../config/schema.ts";
import type { GitHubLists } from "../../core/source_ports.ts";
import { findGh, GhCli } from "./gh_cli.ts";
import { GitHubReader } from "./github_reader.ts";

/** The reader, or why GitHub is not available. */
export function githubAccess(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): { reader?: GitHubReader; problem?: string } {
  const settings = config.github;
  if (!settings.enabled) return { problem: "off (github.enabled is false)" };
  const path = findGh(settings.gh_path, env);
  if (!path) {
    return {
      problem:
        `the gh CLI is not installed (${settings.gh_path} not found; https://cli.github.com)`,
    };
  }
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
