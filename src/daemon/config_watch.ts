/**
 * radar.yaml edited by hand while `radar serve` runs: the file's folder is watched (and the file
 * looked at on every tick, for a folder created later or an event the watcher dropped); a change
 * is loaded exactly as at start and applied live where the dashboard's save applies it
 * (`radar.applyLiveConfig`). What needs a restart, or why the new file was not used, is written
 * to `<data>/config_state.json` for `radar status` and logged once per change.
 */
import { basename, dirname, join } from "node:path";
import { writeTextFileAtomically } from "../config/atomic_file.ts";
import { systemTimers, type Timers } from "../adapters/file_watcher.ts";
import { readTextFileIfExists } from "../config/config_file.ts";
import { type Environment, userConfigPath } from "../config/paths.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { Logger } from "../core/ports.ts";
import { changedConfigKeys, configValues, setConfigValues } from "../runtime/live_config.ts";
import { runningDaemon } from "./lock_file.ts";
import type { TickJob } from "../core/work_ports.ts";
import type { Watcher } from "./daemon.ts";

/** What the running daemon knows about its config file, for `radar status`. */
export interface ConfigState {
  /** The daemon that wrote it. */
  pid: number;
  path: string;
  checkedAt: string;
  /** Keys the file changes that only a restart applies ("web.port"). */
  restartKeys: string[];
  /**
   * The values the daemon runs with for `restartKeys` (the file has others), so `radar status`
   * shows what the daemon does, not what the file says it will do after a restart.
   */
  running?: Record<string, unknown>;
  /** Keys applied without a restart at the last change. */
  applied: string[];
  /** Why the changed file is not used (the daemon keeps its running config). */
  error?: string;
}

/** What the watcher needs of the open Radar. */
export interface ConfigWatchTarget {
  config: RadarConfig;
  loaded: { path?: string };
  dataDir: string;
  logger: Logger;
  process: { pid: number };
  clock: { now(): Date };
  applyLiveConfig(next: RadarConfig): string[];
}

/** The config watcher: an event source, and a tick job that checks the file once a minute. */
export type ConfigWatch = Watcher & TickJob & {
  /**
   * Loads the file if it changed since the last look, applies it, records the state. The config
   * loader (the schema) is imported with the first change, so an idle daemon does not hold it.
   */
  check(): Promise<void>;
};

/** Where the daemon records its config state. */
export function configStatePath(dataDir: string): string {
  return join(dataDir, "config_state.json");
}

/** The state the running daemon `pid` recorded; undefined when none (or another daemon's). */
export function readConfigState(dataDir: string, pid: number): ConfigState | undefined {
  try {
    const state = JSON.parse(Deno.readTextFileSync(configStatePath(dataDir))) as ConfigState;
    return state.pid === pid && Array.isArray(state.restartKeys) ? state : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `config` (a command's, loaded from the file) what the running daemon of `dataDir` runs:
 * the keys it has not applied (they need a restart) get the values it runs with. Nothing when no
 * daemon runs or it is in step with the file. `radar status` opens Radar through it, so it never
 * claims a state the daemon is not in.
 */
export function asTheDaemonRuns(config: RadarConfig, dataDir: string): void {
  const daemon = runningDaemon(dataDir);
  const state = daemon ? readConfigState(dataDir, daemon.pid) : undefined;
  statesRead.set(config, { state });
  if (state?.running) setConfigValues(config, state.running);
}

/** The state each config `asTheDaemonRuns` adjusted was made from: one look for one command. */
const statesRead = new WeakMap<RadarConfig, { state: ConfigState | undefined }>();

/**
 * The daemon's config state as `config` shows it: the one `asTheDaemonRuns` read for it (so a
 * `radar status` never says "restart needed" beside values the daemon does not run), else now.
 */
export function configStateOf(
  config: RadarConfig,
  dataDir: string,
  pid: number,
): ConfigState | undefined {
  return statesRead.has(config) ? statesRead.get(config)!.state : readConfigState(dataDir, pid);
}

/** Watches the config file of `radar` (its path, else where `radar.yaml` would be created). */
export function watchConfigFile(
  radar: ConfigWatchTarget,
  options: { env: Environment; cwd: string; timers?: Timers; debounceMs?: number },
): ConfigWatch {
  const path = radar.loaded.path ?? userConfigPath(options.env);
  const timers = options.timers ?? systemTimers;
  // A version of the file is its text (small), or undefined while it is absent.
  let seen = readTextFileIfExists(path);
  let watcher: Deno.FsWatcher | undefined;
  let pending: number | undefined;

  const record = (state: Omit<ConfigState, "pid" | "path" | "checkedAt">) => {
    const full: ConfigState = {
      pid: radar.process.pid,
      path,
      checkedAt: radar.clock.now().toISOString(),
      ...state,
    };
    try {
      writeTextFileAtomically(configStatePath(radar.dataDir), JSON.stringify(full));
    } catch (error) {
      radar.logger.warn("cannot record the config state", { error: (error as Error).message });
    }
  };

  const loadHere = async () => {
    const { loadConfig } = await loaderModule();
    return loadConfig({
      explicitPath: path,
      env: options.env,
      cwd: options.cwd,
      // No file at start and none now: the embedded defaults, as at start.
      readTextFile: (file) => readTextFileIfExists(file) ?? (radar.loaded.path ? undefined : ""),
    });
  };

  const check = async () => {
    const stamp = readTextFileIfExists(path);
    if (stamp === seen) return;
    seen = stamp;
    let next: RadarConfig;
    try {
      // A child validates and remembers an existing file (the schema stays out of the daemon);
      // anything else, or what the child could not remember (an invalid file), loads here.
      const fromChild = stamp === undefined
        ? undefined
        : await (await configCheckModule()).configFromChild({
          explicitPath: path,
          env: options.env,
          cwd: options.cwd,
          readTextFile: readTextFileIfExists,
        });
      next = (fromChild ?? await loadHere()).config;
    } catch (error) {
      const message = (error as Error).message;
      radar.logger.warn("radar.yaml changed but cannot be used; the running config stays", {
        error: message,
      });
      record({ restartKeys: [], applied: [], error: message });
      return;
    }
    const applied = radar.applyLiveConfig(next);
    const restartKeys = changedConfigKeys(radar.config, next);
    radar.logger.info("radar.yaml changed", {
      applied: applied.join(", ") || "nothing",
      restart: restartKeys.join(", ") || "nothing",
    });
    record({ restartKeys, applied, running: configValues(radar.config, restartKeys) });
  };

  const later = () => {
    if (pending !== undefined) timers.clear(pending);
    pending = timers.set(() => {
      pending = undefined;
      void check();
    }, options.debounceMs ?? 300);
  };

  return {
    name: "config file",
    check,
    run: check,
    start() {
      record({ restartKeys: [], applied: [] });
      try {
        watcher = Deno.watchFs(dirname(path), { recursive: false });
      } catch {
        return; // No folder yet: the tick looks at the file.
      }
      const current = watcher;
      void (async () => {
        try {
          for await (const event of current) {
            if (event.paths.some((changed) => basename(changed) === basename(path))) later();
          }
        } catch (error) {
          radar.logger.warn("config file watcher stopped", { error: (error as Error).message });
        }
      })();
    },
    close() {
      if (pending !== undefined) timers.clear(pending);
      pending = undefined;
      try {
        watcher?.close();
      } catch { /* already closed */ }
      watcher = undefined;
    },
  };
}

/** The config loader (and its schema), loaded only when the config loads here. */
function loaderModule(): Promise<typeof import("../config/loader.ts")> {
  return import(new URL("../config/loader.ts", import.meta.url).href);
}

/** The config check's module, loaded when a child validates the file. */
function configCheckModule(): Promise<typeof import("./config_check.ts")> {
  return import(new URL("./config_check.ts", import.meta.url).href);
}
