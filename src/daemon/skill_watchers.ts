/**
 * The skill folders' watcher, a daemon `Watcher`: `<data>/skills` (created if missing) and
 * `skills.dirs` are watched with Deno.watchFs, and every change invalidates the skill catalog, so
 * the next request sees an added, edited or removed SKILL.md without a restart. While every
 * such folder is watched the catalog skips its per-request file checks; a folder that does not
 * exist (or a watcher that fails) leaves it checking files on each look, as without a daemon.
 * The bundled skills are part of the program and never change while it runs. A live change of
 * `skills.dirs` (the dashboard's /config) stops the watcher and starts one on the new folders.
 */
import type { Logger } from "../core/ports.ts";
import type { Watcher } from "./daemon.ts";
import { isFolder } from "../config/quiet_stat.ts";

/** What the skill watcher needs of the facade: its skill catalog, skill roots and logger. */
export interface SkillWatchTarget {
  skillCatalog: { invalidate(): void; setWatched(watched: boolean): void };
  /** The folders now (read again after every change). */
  readonly skillRoots: ReadonlyArray<{ path: string; source: string }>;
  /** Tells when the folders changed (a live `skills.dirs` edit); absent: they never do. */
  onSkillRootsChanged?(listener: () => void): () => void;
  logger: Logger;
}

/** The skill folder watcher (none when skills are off). */
export function skillSources(radar: SkillWatchTarget): Watcher[] {
  const catalog = radar.skillCatalog;
  const watchedRoots = () => radar.skillRoots.filter((root) => root.source !== "bundled");
  // Skills off (`skills.enabled` is not live): no folders now or later.
  if (!watchedRoots().length) return [];
  let watcher: Deno.FsWatcher | undefined;
  let stopListening: (() => void) | undefined;

  const watch = () => {
    const roots = watchedRoots();
    for (const root of roots) {
      if (root.source !== "data") continue;
      try {
        Deno.mkdirSync(root.path, { recursive: true, mode: 0o700 });
      } catch { /* reported below as not watched */ }
    }
    const watchable = roots.filter((root) => isFolder(root.path));
    if (!watchable.length) return;
    let current: Deno.FsWatcher;
    try {
      current = Deno.watchFs(watchable.map((root) => root.path), { recursive: true });
    } catch (error) {
      radar.logger.warn("cannot watch the skill folders", { error: (error as Error).message });
      return;
    }
    watcher = current;
    catalog.setWatched(watchable.length === roots.length);
    void (async () => {
      try {
        for await (const _event of current) catalog.invalidate();
      } catch (error) {
        radar.logger.warn("skill folder watcher stopped", { error: (error as Error).message });
      }
      // A watcher replaced after a folder change leaves the flag to its successor.
      if (watcher === current) {
        watcher = undefined;
        catalog.setWatched(false);
      }
    })();
  };

  const unwatch = () => {
    const current = watcher;
    watcher = undefined;
    try {
      current?.close();
    } catch { /* already closed */ }
    catalog.setWatched(false);
  };

  return [{
    start() {
      watch();
      stopListening = radar.onSkillRootsChanged?.(() => {
        // The catalog itself was invalidated by the facade's own listener (open_radar.ts).
        unwatch();
        watch();
        radar.logger.info("skill folders changed; watching them again", {
          folders: watchedRoots().length,
        });
      });
    },
    close() {
      stopListening?.();
      stopListening = undefined;
      unwatch();
    },
  }];
}
