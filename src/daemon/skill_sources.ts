/**
 * The skill folders' watcher as a daemon event source: `<data>/skills` (created if missing) and
 * `skills.dirs` are watched with Deno.watchFs, and every change invalidates the skill catalog, so
 * the next request sees an added, edited or removed SKILL.md without a restart. While every
 * such folder is watched the catalog skips its per-request file checks; a folder that does not
 * exist (or a watcher that fails) leaves it checking files on each look, as without a daemon.
 * The bundled skills are part of the program and never change while it runs.
 */
import type { Logger } from "../core/ports.ts";
import type { EventSource } from "./daemon.ts";

/** What the skill watcher needs of the facade: its skill catalog, skill roots and logger. */
export interface SkillWatchTarget {
  skillCatalog: { invalidate(): void; setWatched(watched: boolean): void };
  skillRoots: ReadonlyArray<{ path: string; source: string }>;
  logger: Logger;
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The skill folder watcher (none when skills are off). */
export function skillSources(radar: SkillWatchTarget): EventSource[] {
  const catalog = radar.skillCatalog;
  const roots = radar.skillRoots.filter((root) => root.source !== "bundled");
  if (!roots.length) return [];
  let watcher: Deno.FsWatcher | undefined;
  return [{
    start() {
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
        catalog.setWatched(false);
      })();
    },
    close() {
      try {
        watcher?.close();
      } catch { /* already closed */ }
      watcher = undefined;
      catalog.setWatched(false);
    },
  }];
}
