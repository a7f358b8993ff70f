/** Whether GitHub is usable here (enabled, gh installed), and its reader. */
import type { RadarConfig } from "../../config/schema.ts";
import { GhCli } from "./gh_cli.ts";
import { usableGh } from "./find_gh.ts";
import { GitHubReader } from "./github_reader.ts";

/** The reader, or why GitHub is not available. */
export function githubAccess(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): { reader?: GitHubReader; problem?: string } {
  const gh = usableGh(config.github, env);
  return "path" in gh ? { reader: githubReaderAt(gh.path, config, env) } : gh;
}

/** The reader over the gh CLI at `path`. */
export function githubReaderAt(
  path: string,
  config: RadarConfig,
  env: Record<string, string | undefined>,
): GitHubReader {
  return new GitHubReader(
    new GhCli(path, { env, timeoutMs: config.github.timeout_seconds * 1000 }),
  );
}
