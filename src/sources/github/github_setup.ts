/** The GitHub job (when gh is available) and its health record. */
import type { RadarConfig } from "../../config/schema.ts";
import type { SourceHealthRecord } from "../../core/source_ports.ts";
import type { SourceStore } from "../source_stores.ts";
import { checkDependencies } from "../source_checks.ts";
import { storedHealthRecord } from "../stored_health.ts";
import { githubAccess } from "./github_access.ts";
import { GitHubCheck, githubSourceName } from "./github_check.ts";
import type { SourceJobDependencies } from "../source_jobs.ts";

/** The GitHub tick job (none when gh is not available). */
export function githubJobs(deps: Omit<SourceJobDependencies, "fetch" | "secrets">): GitHubCheck[] {
  const env = deps.env ?? Deno.env.toObject();
  const { reader, problem } = githubAccess(deps.config, env);
  if (!reader) {
    if (deps.config.github.enabled) deps.logger.debug("no GitHub source", { reason: problem });
    return [];
  }
  return [
    new GitHubCheck({
      ...checkDependencies(deps),
      reader,
      seen: deps.stores.github,
      everyMinutes: deps.config.github.check_every_minutes,
    }),
  ];
}

/** GitHub's health record: disabled (why gh is not used), or the stored check's health. */
export function githubHealthRecord(
  config: RadarConfig,
  health: SourceStore,
  env: Record<string, string | undefined>,
): SourceHealthRecord {
  const { problem } = githubAccess(config, env);
  if (problem) {
    return {
      kind: "github",
      name: "github",
      state: "disabled",
      failures: 0,
      note: `${problem}; no github tool or events`,
    };
  }
  return storedHealthRecord(
    "github",
    "github",
    health.health(githubSourceName),
    "gh found; checked by radar serve",
  );
}
