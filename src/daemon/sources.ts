/** The daemon's tick jobs (tasks, monitors) and event sources (file watchers). */
import { basename } from "node:path";
import { expandHome } from "../config/paths.ts";
import { FolderWatcher, systemTimers, type Timers } from "../adapters/file_watcher.ts";
import type { TickJob } from "./scheduler.ts";
import type { DaemonServices } from "./services.ts";

/** Jobs run on every tick before the heartbeat (which then sees the monitors' events). */
export function daemonJobs(services: DaemonServices): TickJob[] {
  return [services.taskRunner, services.monitorChecker];
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One folder watcher per `watchers:` entry; each finished file becomes one queued event. */
export function daemonSources(
  services: DaemonServices,
  options: { env?: Record<string, string | undefined>; timers?: Timers } = {},
): FolderWatcher[] {
  const { runtime } = services;
  const env = options.env ?? Deno.env.toObject();
  return runtime.config.watchers.map((entry) =>
    new FolderWatcher({
      folder: expandHome(entry.path, env),
      pattern: entry.pattern,
      recursive: entry.recursive,
      timers: options.timers ?? systemTimers,
      logger: runtime.logger,
      onFile: (file) => {
        services.queue.enqueue({
          source: `watcher ${entry.path}`,
          kind: entry.action,
          summary: `${basename(file.path)} (${formatSize(file.size)}) at ${file.path}`,
          urgent: entry.urgent,
          dedupeKey: `file:${file.path}`,
        }, runtime.clock.now());
        runtime.logger.info("file event queued", { action: entry.action, path: file.path });
      },
    })
  );
}
