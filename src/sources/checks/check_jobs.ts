/** Builds the custom checks job and its zero-model notifier from the daemon's parts. */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../../config/schema.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import type { SideEffectLog } from "../../core/side_effects.ts";
import type { Secrets } from "../../core/secrets.ts";
import { notifyTool } from "../../tools/notify.ts";
import { execSandbox } from "../../tools/exec/sandbox_spec.ts";
import type { EventSink } from "../source_checks.ts";
import { SqliteSourceStore } from "../source_store.ts";
import { SqliteCheckStore } from "./check_store.ts";
import { type CheckNotifier, CustomChecks } from "./custom_checks.ts";

/** What the checks need from the daemon. */
export interface CheckJobDependencies {
  config: RadarConfig;
  configPath?: string;
  dataDir: string;
  db: DatabaseSync;
  queue: EventSink;
  /** The outbox log of one run under `scope` (the daemon's `runSideEffects`). */
  sideEffects: (scope: string) => SideEffectLog;
  clock: Clock;
  logger: Logger;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** The known secrets (kept out of a check's environment and masked in its output). */
  secrets: Secrets;
}

/**
 * The notifier of `notify_on_failure` checks: the notify tool itself (ntfy, quiet hours unless
 * urgent), run with an outbox scope per change so a crash never sends one twice.
 */
export function checkNotifier(deps: CheckJobDependencies): CheckNotifier {
  const tool = notifyTool({
    config: deps.config,
    fetch: deps.fetch ?? globalThis.fetch,
    clock: deps.clock,
  });
  return async ({ scope, title, message, urgent }) => {
    const output = await tool.run(
      { title, message, priority: urgent ? "high" : "default", tags: "warning" },
      {
        kind: "heartbeat",
        interactive: false,
        signal: AbortSignal.timeout(20_000),
        sideEffects: deps.sideEffects(scope),
      },
    );
    return typeof output === "string" ? output : `${output.outcome}: ${output.text}`;
  };
}

/** The custom checks job (none when no check is configured). */
export function checkJobs(deps: CheckJobDependencies): CustomChecks[] {
  if (!deps.config.checks.length) return [];
  const env = deps.env ?? Deno.env.toObject();
  const files = {
    config: deps.config,
    configPath: deps.configPath,
    dataDir: deps.dataDir,
    env,
    secrets: deps.secrets,
  };
  return [
    new CustomChecks({
      db: deps.db,
      store: new SqliteSourceStore(deps.db),
      queue: deps.queue,
      clock: deps.clock,
      logger: deps.logger,
      checks: deps.config.checks,
      results: new SqliteCheckStore(deps.db),
      files,
      sandbox: execSandbox(files),
      notify: checkNotifier(deps),
    }),
  ];
}
