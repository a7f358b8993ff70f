/** Finding the config file: `--config`, then RADAR_CONFIG, then the user's config folder. */
import { resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { type Environment, userConfigPath } from "./paths.ts";

/** The config file in use (path and text), or neither when Radar runs on embedded defaults. */
export interface ConfigFile {
  path?: string;
  text?: string;
}

/** One place Radar looked for its config, and what it made of it. */
export interface ConfigCandidate {
  source: "--config" | "RADAR_CONFIG" | "user config folder" | "current folder";
  path: string;
  /** `used`: this file is the config; `ignored`: present but not read; `absent`: no file there. */
  state: "used" | "ignored" | "absent";
  /** Why it was ignored (or absent). */
  reason?: string;
}

/** Where the config came from, and every candidate with its verdict (`radar config path`). */
export interface ConfigLookup extends ConfigFile {
  candidates: ConfigCandidate[];
}

/** The largest config file Radar reads. */
const maxConfigBytes = 1024 * 1024;

/**
 * Reads a file's text, or undefined when it does not exist. Refuses what is not a regular file
 * (a FIFO or device would block or never end) and files over 1 MiB, with one line.
 */
export function readTextFileIfExists(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) {
      throw new ConfigError(
        `Cannot read config ${path}: not a regular file (${
          info.isDirectory ? "a directory" : "a FIFO, socket or device"
        })`,
      );
    }
    if (info.size > maxConfigBytes) {
      throw new ConfigError(`Cannot read config ${path}: larger than 1 MiB`);
    }
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new ConfigError(`Cannot read config ${path}: ${(error as Error).message}`);
  }
}

/** Inputs of the lookup, injectable for tests. */
export interface LookupOptions {
  /** `--config PATH` from the command line. */
  explicitPath?: string;
  env: Environment;
  cwd: string;
  readTextFile: (path: string) => string | undefined;
}

/**
 * Looks the config file up: `--config PATH`, then RADAR_CONFIG (both must exist; relative paths
 * resolve against `cwd`, the folder the user ran the command in), then
 * $XDG_CONFIG_HOME/radar/radar.yaml. A radar.yaml in `cwd` is never read implicitly: a file a
 * checkout or a model dropped there must not shadow the user's config.
 */
export function findConfigFile(options: LookupOptions): ConfigFile {
  const explicit = options.explicitPath || options.env.RADAR_CONFIG;
  if (explicit) {
    const path = resolve(options.cwd, explicit);
    const text = options.readTextFile(path);
    if (text === undefined) throw new ConfigError(`Cannot read config ${path}: file not found`);
    return { path, text };
  }
  const path = userConfigPath(options.env);
  const text = options.readTextFile(path);
  return text === undefined ? {} : { path, text };
}

/** The lookup with every candidate and its verdict, for `radar config path`. */
export function lookUpConfigFile(options: LookupOptions): ConfigLookup {
  const found = findConfigFile(options);
  const winner = options.explicitPath ? "--config" : options.env.RADAR_CONFIG ? "RADAR_CONFIG" : "";
  const candidates: ConfigCandidate[] = [];
  const explicit: Array<[ConfigCandidate["source"], string | undefined]> = [
    ["--config", options.explicitPath],
    ["RADAR_CONFIG", options.env.RADAR_CONFIG],
  ];
  for (const [source, given] of explicit) {
    if (!given) continue;
    const path = resolve(options.cwd, given);
    candidates.push(
      source === winner
        ? { source, path, state: "used" }
        : { source, path, state: "ignored", reason: `${winner} wins` },
    );
  }
  const user = userConfigPath(options.env);
  const userExists = user === found.path || options.readTextFile(user) !== undefined;
  candidates.push({
    source: "user config folder",
    path: user,
    state: user === found.path ? "used" : userExists ? "ignored" : "absent",
    reason: user === found.path ? undefined : userExists ? `${winner} wins` : "no such file",
  });
  const local = resolve(options.cwd, "radar.yaml");
  if (local !== found.path && local !== user && options.readTextFile(local) !== undefined) {
    candidates.push({
      source: "current folder",
      path: local,
      state: "ignored",
      reason: "never read implicitly; use --config ./radar.yaml",
    });
  }
  return { ...found, candidates };
}
