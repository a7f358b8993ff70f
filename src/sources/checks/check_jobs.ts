/** Builds the custom checks job and its zero-model notifier from the daemon's parts. */
import type { RadarConfig } from "../../config/schema.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import type { SideEffectLog } from "../../core/side_effects.ts";
import type { Secrets } from "../../core/secrets.ts";
import type { SourceStores } from "../source_stores.ts";
import {
  type Notifier,
  notifyOnce,
  notifyOutcomeLine,
  quietHoursGate,
} from "../../core/notifier.ts";
import { execSandbox } from "../../adapters/os/sandbox_spec.ts";
import { checkDependencies, type EventSink } from "../source_checks.ts";
import { type CheckNotifier, CustomChecks } from "./custom_checks.ts";

/** What the checks need from the daemon. */
export interface CheckJobDependencies {
  config: RadarConfig;
  configPath?: string;
  dataDir: string;
  stores: SourceStores;
  queue: EventSink;
  /** Sends `notify_on_failure` notifications. */
  notifier: Notifier;
  /** The outbox log of one run under `scope` (the daemon's `runSideEffects`). */
  sideEffects: (scope: string) => SideEffectLog;
  clock: Clock;
  logger: Logger;
  env?: Record<string, string | undefined>;
  /** The known secrets (kept out of a check's environment and masked in its output). */
  secrets: Secrets;
}

/**
 * The notifier of `notify_on_failure` checks: quiet hours hold it back unless the check is
 * urgent (as the notify tool does on heartbeats), and each change goes under its own outbox
 * scope, so a crash never sends one twice.
 */
export function checkNotifier(deps: CheckJobDependencies): CheckNotifier {
  const gate = quietHoursGate(
    deps.config.heartbeat.quiet_hours,
    deps.clock,
    deps.config.radar.timezone || undefined,
  );
  return async ({ scope, title, message, urgent }) => {
    const verdict = gate.check({ urgent });
    if (!verdict.allowed) return `Not sent: ${verdict.reason}.`;
    const outcome = await notifyOnce(
      deps.notifier,
      deps.sideEffects(scope),
      { title, message, priority: urgent ? "high" : "default", tags: ["warning"] },
      AbortSignal.timeout(20_000),
    );
    return notifyOutcomeLine(outcome);
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
      ...checkDependencies(deps),
      checks: deps.config.checks,
      results: deps.stores.checks,
      files,
      sandbox: execSandbox(files),
      notify: checkNotifier(deps),
    }),
  ];
}
