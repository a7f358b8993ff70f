/** Builds the hook registry of a run: config rules now, plugin hooks when the plugins load. */
import type { RadarConfig } from "../config/schema.ts";
import { Hooks } from "../core/hooks.ts";
import type { AuditSink, Clock, Logger } from "../core/ports.ts";
import { registerConfigRules } from "./config_rules.ts";
import { zonedParts } from "../core/zoned_time.ts";

/** What the hooks are built from. */
export interface CreateHooksOptions {
  config: Pick<RadarConfig, "hooks" | "radar">;
  clock: Clock;
  logger: Logger;
  audit?: AuditSink;
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * A registry holding the config rules. A failing handler is logged and leaves an audit row named
 * `hook:NAME` (skipped, or a block when the rule is fail-closed).
 */
export function createHooks(options: CreateHooksOptions): Hooks {
  const { clock, logger, audit } = options;
  const hooks = new Hooks((registration, error) => {
    logger.warn(`hook ${registration.name} (${registration.point}) failed: ${error}`);
    audit?.recordToolCall({
      at: clock.now(),
      tool: `hook:${registration.name}`,
      arguments: JSON.stringify({ point: registration.point }),
      durationMs: 0,
      outcome: "error",
      result: error.slice(0, 300),
    });
  });
  const timeZone = options.config.radar.timezone;
  registerConfigRules(hooks, options.config, {
    clock,
    logger,
    home: options.env.HOME,
    cwd: options.cwd,
    hourOf: timeZone ? (date) => zonedParts(date, timeZone).hour : undefined,
  });
  return hooks;
}
