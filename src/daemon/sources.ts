/** The daemon's tick jobs (monitors, tasks) and event sources (file watchers). */
import type { EventSource } from "./daemon.ts";
import type { TickJob } from "./scheduler.ts";
import type { DaemonServices } from "./services.ts";

/** Jobs run on every tick before the heartbeat. */
export function daemonJobs(services: DaemonServices): TickJob[] {
  return [services.taskRunner];
}

/** Event sources started with the daemon. */
export function daemonSources(_services: DaemonServices): EventSource[] {
  return [];
}
