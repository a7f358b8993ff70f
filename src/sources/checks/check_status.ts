/** The `radar status` section of the custom checks: sandbox, last run, failing or not. */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../../config/schema.ts";
import { SqliteSourceStore } from "../source_store.ts";
import { SqliteCheckStore } from "./check_store.ts";
import { checkSourceName } from "./custom_checks.ts";

function when(iso: string): string {
  return iso.slice(0, 16).replace("T", " ") + " UTC";
}

/** Lines for `radar status`; `sandboxProblem` is why no sandbox exists (then nothing runs). */
export function checkStatusLines(
  config: RadarConfig,
  db: DatabaseSync,
  sandboxProblem: string | undefined,
): string[] {
  if (!config.checks.length) return [];
  if (sandboxProblem) {
    return [`checks:    ${config.checks.length} configured, NOT RUNNING: ${sandboxProblem}`];
  }
  const health = new SqliteSourceStore(db);
  const results = new SqliteCheckStore(db);
  return [
    "checks:",
    ...config.checks.map((check) => {
      const source = health.health(checkSourceName(check.name));
      const last = results.last(check.name);
      if (source?.lastError) {
        return `  ${check.name}: FAILING TO RUN (${source.failures}× in a row, last ` +
          `${when(source.lastCheckAt ?? "")}): ${source.lastError}`;
      }
      if (
        !last
      ) {
        return `  ${check.name}: not run yet (run by radar serve, every ${check.every_minutes} min)`;
      }
      const state = last.failing ? `failing (exit ${last.exitCode ?? "?"})` : "ok";
      return `  ${check.name}: ${state} (last run ${when(last.lastRunAt)}, ${last.durationMs} ms)`;
    }),
  ];
}
