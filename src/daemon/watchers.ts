/** The daemon's watchers: durable folder watchers and the plugin folder watcher. */
import { basename } from "node:path";
import { expandHome } from "../config/paths.ts";
import {
  FolderWatcher,
  systemTimers,
  type Timers,
  type WatchFs,
} from "../adapters/file_watcher.ts";
import type { ReconcilePolicy } from "../adapters/reconcile_schedule.ts";
import type { SeenFile } from "../sources/watched_folders.ts";
import { type PluginWatcher, watchPluginFolders } from "../plugins/watch_plugins.ts";
import { ensurePluginDirectories, pluginDirectories } from "../plugins/plugin_directories.ts";
import type { Watcher } from "./daemon.ts";
import type { Radar } from "../runtime/open_radar.ts";
import { byteSizeText } from "../core/bytes.ts";

/**
 * One durable folder watcher per `watchers:` entry: every file seen (by an OS event or a
 * reconcile of the folder) is stored at once, settles on its stored row, and becomes one queued
 * event in the same transaction that marks it queued. `watch` and `reconcile` are for tests
 * (a lossy OS stream, a shorter policy).
 */
export function daemonSources(
  radar: Radar,
  options: {
    env?: Record<string, string | undefined>;
    timers?: Timers;
    now?: () => number;
    debounceMs?: number;
    watch?: WatchFs;
    reconcile?: Partial<ReconcilePolicy>;
  } = {},
): FolderWatcher[] {
  const env = options.env ?? Deno.env.toObject();
  return radar.config.watchers.map((entry) => {
    const folder = expandHome(entry.path, env);
    const ledger = radar.watchedFiles.ledger(folder, (files) => {
      const at = radar.clock.now();
      for (const file of files) {
        radar.queue.enqueue({
          source: `watcher ${entry.path}`,
          kind: entry.action,
          summary: `${basename(file.path)} (${byteSizeText(file.size)}) at ${file.path}`,
          urgent: entry.urgent,
          dedupeKey: `file:${file.path}`,
        }, at);
      }
    });
    const finish = (files: readonly SeenFile[]) => {
      ledger.finish(files);
      radar.logger.info("file events queued", {
        action: entry.action,
        files: files.length,
        first: files[0]?.path,
      });
    };
    return new FolderWatcher({
      folder,
      pattern: entry.pattern,
      recursive: entry.recursive,
      timers: options.timers ?? systemTimers,
      logger: radar.logger,
      ledger: { ...ledger, finish },
      now: options.now,
      debounceMs: options.debounceMs,
      watch: options.watch,
      reconcile: options.reconcile,
    });
  });
}

/**
 * The plugin folder watcher as an event source (when plugins are enabled): a folder dropped
 * into `<data>/plugins` is picked up for review while the daemon runs (the plugin system loads
 * on the first change); it stops on shutdown.
 */
export function pluginSources(
  radar: Pick<Radar, "config" | "dataDir" | "logger" | "plugins">,
  options: { debounceMs?: number } = {},
): Watcher[] {
  const { logger } = radar;
  if (!radar.config.plugins.enabled) return [];
  let watcher: PluginWatcher | undefined;
  return [{
    start() {
      try {
        const folders = pluginDirectories(radar.dataDir);
        ensurePluginDirectories(folders);
        watcher = watchPluginFolders({
          root: folders.root,
          refresh: async () => (await radar.plugins())?.refresh() ?? [],
        }, {
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
