/**
 * Watches `<data>/plugins` while `radar serve` runs and refreshes the plugin system after changes
 * settle (debounced), so a dropped or edited plugin folder is picked up without a restart.
 */
/** A running watcher; `stop()` ends it. */
export interface PluginWatcher {
  stop(): void;
  /** Resolves when the watcher has ended. */
  done: Promise<void>;
}

/** What is watched: the plugin folders' root, and what picks up a change there. */
export interface WatchedPluginFolders {
  root: string;
  /** `PluginSystem.refresh` (the daemon loads the plugin system on the first change). */
  refresh(): Promise<string[]>;
}

/** Starts watching the plugin folders; `onChanges` receives what each refresh changed. */
export function watchPluginFolders(
  system: WatchedPluginFolders,
  options: { debounceMs?: number; onChanges?: (changes: string[]) => void } = {},
): PluginWatcher {
  const watcher = Deno.watchFs(system.root, { recursive: true });
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
