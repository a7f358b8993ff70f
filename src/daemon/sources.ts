/** The daemon's tick jobs (tasks, monitors) and event sources (file watchers, plugin folders). */
import { basename } from "node:path";
import { expandHome } from "../config/paths.ts";
import {
  FolderWatcher,
  systemTimers,
  type Timers,
  type WatchLedger,
} from "../adapters/file_watcher.ts";
import { transaction } from "../adapters/sqlite/database.ts";
import { type PluginWatcher, watchPluginFolders } from "../plugins/watch_plugins.ts";
import type { EventSource } from "./daemon.ts";
import type { TickJob } from "./scheduler.ts";
import type { DaemonServices } from "./services.ts";
import { sourceJobs } from "../sources/source_jobs.ts";
import { checkJobs } from "../sources/checks/check_jobs.ts";
import { runSideEffects } from "./run_side_effects.ts";
import { githubJobs } from "../sources/github/github_setup.ts";
import { digestJobs } from "../sources/digests/digest_setup.ts";

/** Jobs run on every tick before the heartbeat (which then sees the monitors' events). */
export function daemonJobs(services: DaemonServices): TickJob[] {
  const { config, db, clock, logger } = services.runtime;
  const sources = sourceJobs({ config, db, queue: services.queue, clock, logger });
  const checks = checkJobs({
    ...services.runtime,
    configPath: services.runtime.loaded.path,
    queue: services.queue,
    sideEffects: (scope) => runSideEffects(services.outbox, scope, clock, services.pid),
  });
  const github = githubJobs({ config, db, queue: services.queue, clock, logger });
  const digests = digestJobs({ ...services.runtime, queue: services.queue });
  return [
    services.taskRunner,
    services.monitorChecker,
    ...sources,
    ...checks,
    ...github,
    ...digests,
  ];
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * One durable folder watcher per `watchers:` entry: every file seen is stored at once, settles on
 * its stored row, and becomes one queued event in the same transaction that marks it queued.
 */
export function daemonSources(
  services: DaemonServices,
  options: {
    env?: Record<string, string | undefined>;
    timers?: Timers;
    now?: () => number;
    debounceMs?: number;
  } = {},
): FolderWatcher[] {
  const { runtime } = services;
  const env = options.env ?? Deno.env.toObject();
  const store = services.watchedFiles;
  return runtime.config.watchers.map((entry) => {
    const folder = expandHome(entry.path, env);
    const ledger: WatchLedger = {
      record: (files, nowMs, flags) => store.record(folder, files, nowMs, flags),
      settling: (limit) => store.settling(folder, limit),
      restart: (files, nowMs) => store.restart(folder, files, nowMs),
      forget: (paths) => store.forget(folder, paths),
      known: () => store.known(folder),
      hasBaseline: () => store.hasBaseline(folder),
      countScan: (reason, found, at) => store.countScan(folder, reason, found, at),
      finish: (files) => {
        const at = runtime.clock.now();
        transaction(runtime.db, () => {
          for (const file of files) {
            services.queue.enqueue({
              source: `watcher ${entry.path}`,
              kind: entry.action,
              summary: `${basename(file.path)} (${formatSize(file.size)}) at ${file.path}`,
              urgent: entry.urgent,
              dedupeKey: `file:${file.path}`,
            }, at);
          }
          store.markQueued(folder, files);
        });
        runtime.logger.info("file events queued", {
          action: entry.action,
          files: files.length,
          first: files[0]?.path,
        });
      },
    };
    return new FolderWatcher({
      folder,
      pattern: entry.pattern,
      recursive: entry.recursive,
      timers: options.timers ?? systemTimers,
      logger: runtime.logger,
      ledger,
      now: options.now,
      debounceMs: options.debounceMs,
    });
  });
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
