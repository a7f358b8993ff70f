/** The runtime's logging: the clock and the masked logger, and warnings said once. */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { Secrets } from "../core/secrets.ts";
import { systemClock } from "../adapters/clock.ts";
import { createLogger, writeStderrLine } from "../adapters/stderr_logger.ts";
import type { RadarOptions } from "./radar_options.ts";

/**
 * The clock (injected or the system's) and a logger to stderr plus the extra writers. The log is
 * an exit: every line is masked with the secrets known when it is written.
 */
export function runtimeLogging(
  config: RadarConfig,
  options: RadarOptions,
  secrets: Secrets,
): { clock: Clock; logger: Logger } {
  const clock = options.clock ?? systemClock;
  const writers = [writeStderrLine, ...(options.logWriters ?? [])];
  const logger = createLogger(
    options.logLevel ?? config.radar.log_level,
    [(line) => {
      const masked = secrets.mask(line);
      for (const write of writers) write(masked);
    }],
    () => clock.now(),
  );
  return { clock, logger };
}

/** Warns each line once per process (skills left out, a personality past the budget). */
export function onceEach(logger: Logger): (line: string) => void {
  const warned = new Set<string>();
  return (line) => {
    if (!warned.has(line)) logger.warn(line);
    warned.add(line);
  };
}
