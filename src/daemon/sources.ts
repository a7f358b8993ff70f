/** The daemon's tick jobs (tasks, monitors) and event sources (file watchers, plugin folders). */
import { basename } from "node:path";
import { expandHome } from "../config/paths.ts";
import { FolderWatcher, systemTimers, type Timers } from "../adapters/file_watcher.ts";
import { type PluginWatcher, watchPluginFolders } from "../plugins/watch_plugins.ts";
import type { EventSource } from "./daemon.ts";
import type { TickJob } from "./scheduler.ts";
import type { DaemonServices } from "./services.ts";
import { sourceJobs } from "../sources/source_jobs.ts";

/** Jobs run on every tick before the heartbeat (which then sees the monitors' events). */
export function daemonJobs(services: DaemonServices): TickJob[] {
  const { config, db, clock, logger } = services.runtime;
  const sources = sourceJobs({ config, db, queue: services.queue, clock, logger });
  return [services.taskRunner, services.monitorChecker, ...sources];
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

/**
 * The plugin folder watcher as an event source (when plugins are enabled): a folder dropped
 * into `<data>/plugins` is picked up for review while the daemon runs; it stops on shutdown.
 */
export function pluginSources(
  services: DaemonServices,
  options: { debounceMs?: number } = {},
): EventSource[] {
  const { plugins, logger } = services.runtime;
  if (!plugins) return [];
  let watcher: PluginWatcher | undefined;
  return [{
    start() {
      try {
        watcher = watchPluginFolders(plugins, {
          debounceMs: options.debounceMs,
          onChanges: (changes) => logger.info("plugin folders changed", { changes }),
        });
      } catch (error) {
        logger.warn("cannot watch the plugin folders", { error: (error as Error).message });
      }
    },
    close() {
      watcher?.stop();
      watcher = undefined;
    },
  }];
}
