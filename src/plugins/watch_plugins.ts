/**
 * Watches `<data>/plugins` while `radar serve` runs and refreshes the plugin system after changes
 * settle (debounced), so a dropped or edited plugin folder is picked up without a restart.
 */
import type { PluginSystem } from "./plugin_system.ts";

/** A running watcher; `stop()` ends it. */
export interface PluginWatcher {
  stop(): void;
  /** Resolves when the watcher has ended. */
  done: Promise<void>;
}

/** Starts watching the plugin folders; `onChanges` receives what each refresh changed. */
export function watchPluginFolders(
  system: PluginSystem,
  options: { debounceMs?: number; onChanges?: (changes: string[]) => void } = {},
): PluginWatcher {
  const watcher = Deno.watchFs(system.manager.dirs.root, { recursive: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(async () => {
        const changes = await system.refresh();
        if (changes.length) options.onChanges?.(changes);
      }).catch(() => undefined);
    }, options.debounceMs ?? 500);
  };
  const done = (async () => {
    try {
      for await (const _event of watcher) schedule();
    } catch { /* closed */ }
    if (timer !== undefined) clearTimeout(timer);
    await running;
  })();
  return {
    stop: () => {
      try {
        watcher.close();
      } catch { /* already closed */ }
    },
    done,
  };
}
