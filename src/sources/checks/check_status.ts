/** The custom checks' health records: cannot run (no sandbox), failing to run, last result. */
import type { RadarConfig } from "../../config/schema.ts";
import type { SourceHealthRecord } from "../../core/source_ports.ts";
import { storedHealthRecord } from "../stored_health.ts";
import type { SourceStores } from "../source_stores.ts";
import { checkSourceName } from "./custom_checks.ts";

/**
 * One record per configured check; `sandboxProblem` is why no sandbox exists (then none runs,
 * and each says so). A check whose command failed is failing with its exit; one that cannot be
 * run by the daemon is failing with the streak and error of its source row.
 */
export function checkHealthRecords(
  config: RadarConfig,
  stores: Pick<SourceStores, "health" | "checks">,
  sandboxProblem: string | undefined,
): SourceHealthRecord[] {
  if (!config.checks.length) return [];
  if (sandboxProblem) {
    return config.checks.map((check) => ({
      kind: "check",
      name: check.name,
      state: "failing",
      lastError: `not running: ${sandboxProblem}`,
      failures: 0,
    }));
  }
  const { health, checks: results } = stores;
  return config.checks.map((check): SourceHealthRecord => {
    const source = health.health(checkSourceName(check.name));
    const last = results.last(check.name);
    if (source?.lastError || !last) {
      const unchecked = `run by radar serve, every ${check.every_minutes} min`;
      return storedHealthRecord(
        "check",
        check.name,
        source?.lastError ? source : undefined,
        unchecked,
      );
    }
    const run = { kind: "check" as const, name: check.name, lastCheckAt: last.lastRunAt };
    if (!last.failing) return { ...run, state: "ok", failures: 0, durationMs: last.durationMs };
    return {
      ...run,
      state: "failing",
      failures: 0,
      durationMs: last.durationMs,
      lastError: last.exitCode === undefined
        ? "did not finish (timed out or could not start)"
        : `exited with ${last.exitCode}`,
    };
  });
}
