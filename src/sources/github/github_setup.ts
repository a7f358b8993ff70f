/** The GitHub job and `radar status` line (when gh is available). */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../../config/schema.ts";
import { SqliteSourceStore } from "../source_store.ts";
import { githubAccess } from "./github_access.ts";
import { GitHubCheck, githubSourceName } from "./github_check.ts";
import { SqliteGitHubStore } from "./github_store.ts";
import type { SourceJobDependencies } from "../source_jobs.ts";

export { githubAccess, githubTools } from "./github_access.ts";

/** The GitHub tick job (none when gh is not available). */
export function githubJobs(deps: Omit<SourceJobDependencies, "fetch">): GitHubCheck[] {
  const env = deps.env ?? Deno.env.toObject();
  const { reader, problem } = githubAccess(deps.config, env);
  if (!reader) {
    if (deps.config.github.enabled) deps.logger.debug("no GitHub source", { reason: problem });
    return [];
  }
  return [
    new GitHubCheck({
      db: deps.db,
      store: new SqliteSourceStore(deps.db),
      queue: deps.queue,
      clock: deps.clock,
      logger: deps.logger,
      reader,
      seen: new SqliteGitHubStore(deps.db),
      everyMinutes: deps.config.github.check_every_minutes,
    }),
  ];
}

/** The `radar status` line of GitHub. */
export function githubStatusLines(
  config: RadarConfig,
  db: DatabaseSync,
  env: Record<string, string | undefined>,
): string[] {
  const { problem } = githubAccess(config, env);
  if (problem) return [`github:    not used: ${problem}; no github tool or events`];
  const health = new SqliteSourceStore(db).health(githubSourceName);
  const when = (iso?: string) => iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "never";
  if (!health?.lastCheckAt) {
    return ["github:    gh found; not checked yet (checked by radar serve)"];
  }
  if (health.lastError) {
    return [
      `github:    FAILING (${health.failures}× in a row, last ${when(health.lastCheckAt)}; ` +
      `next try ${when(health.nextCheckAt)}): ${health.lastError}`,
    ];
  }
  return [`github:    ok (last check ${when(health.lastCheckAt)})`];
}
