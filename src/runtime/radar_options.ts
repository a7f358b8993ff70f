/**
 * The options of `openRadar` (its own file: the adapters it builds read them too), and this
 * process as runs and locks record it.
 */
import type { ChatModel } from "../core/chat_model.ts";
import type { Clock } from "../core/ports.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { LoadedConfig } from "../config/loader.ts";
import { isProcessAlive, processStartTime } from "../adapters/os/process.ts";

/** How to open Radar. */
export interface RadarOptions {
  configPath?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * The config the caller already loaded for `configPath`, `env` and `cwd` (`radar serve` reads it
   * for its address): used as is, so the file is read and hashed once.
   */
  loaded?: LoadedConfig;
  /** Extra log writers (the daemon adds its log file). */
  logWriters?: Array<(line: string) => void>;
  /** False when the caller already reported the config warnings (default true). */
  reportConfigWarnings?: boolean;
  /** Log level override (`--verbose` → debug). */
  logLevel?: "debug" | "info" | "warn" | "error";
  fetch?: typeof fetch;
  clock?: Clock;
  /** The chat model instead of the configured one (tests and benches script it). */
  model?: ChatModel;
  /** This process as runs and locks record it (tests fake PIDs and liveness). */
  process?: Partial<ProcessIdentity>;
  /** DNS of URL monitors (tests answer private addresses). */
  resolve?: Resolver;
  /**
   * Which addresses are the user's own network: what the browser reaches there is private
   * (default: private, loopback and link-local addresses; tests whose "public" sites are served
   * on loopback name another).
   */
  usersNetwork?: (address: string) => boolean;
  /**
   * Open a database known to be damaged read-only instead of refusing it (`radar serve`: the
   * dashboard says so; every other command refuses with one line).
   */
  openDamaged?: boolean;
  /**
   * Changes the loaded config before anything is built from it (`radar status`: the values the
   * running daemon uses for the keys it has not applied yet).
   */
  adjustConfig?: (config: RadarConfig, dataDir: string) => void;
}

/** Who runs the work: this process's PID and how to tell whether another PID is alive. */
export interface ProcessIdentity {
  pid: number;
  isAlive: (pid: number) => boolean;
  /** When a PID's process started (spots a reused PID in a stale lock); absent in tests. */
  processStart?: (pid: number) => Date | undefined;
  /** Milliseconds since some fixed point (durations of runs). */
  elapsed: () => number;
}

/** This process as `options` describe it, with the real PID and liveness by default. */
export function processIdentity(options: Partial<ProcessIdentity> = {}): ProcessIdentity {
  return {
    pid: options.pid ?? Deno.pid,
    isAlive: options.isAlive ?? isProcessAlive,
    // Real start times only with real liveness: a test's fake PIDs may be real processes here.
    processStart: options.isAlive ? options.processStart : processStartTime,
    elapsed: options.elapsed ?? (() => performance.now()),
  };
}
