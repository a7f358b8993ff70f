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

/**
 * Looks the config file up: `--config PATH`, then RADAR_CONFIG (both must exist; relative paths
 * resolve against `cwd`, the folder the user ran the command in), then
 * $XDG_CONFIG_HOME/radar/radar.yaml. A radar.yaml in `cwd` is never read implicitly: a file a
 * checkout or a model dropped there must not shadow the user's config.
 */
export function lookUpConfigFile(options: {
  explicitPath?: string;
  env: Environment;
  cwd: string;
  readTextFile: (path: string) => string | undefined;
}): ConfigLookup {
  const candidates: ConfigCandidate[] = [];
  let found: ConfigFile | undefined;
  const explicit: Array<[ConfigCandidate["source"], string | undefined]> = [
    ["--config", options.explicitPath],
    ["RADAR_CONFIG", options.env.RADAR_CONFIG],
  ];
  for (const [source, given] of explicit) {
    if (!given) continue;
    const path = resolve(options.cwd, given);
    if (found) {
      candidates.push({ source, path, state: "ignored", reason: `${candidates[0].source} wins` });
      continue;
    }
    const text = options.readTextFile(path);
    if (text === undefined) throw new ConfigError(`Cannot read config ${path}: file not found`);
    found = { path, text };
    candidates.push({ source, path, state: "used" });
  }
  const user = userConfigPath(options.env);
  const userText = found ? undefined : options.readTextFile(user);
  if (userText !== undefined) {
    found = { path: user, text: userText };
    candidates.push({ source: "user config folder", path: user, state: "used" });
  } else {
    const present = found && options.readTextFile(user) !== undefined;
    candidates.push({
      source: "user config folder",
      path: user,
      state: present ? "ignored" : "absent",
      reason: present ? `${candidates[0].source} wins` : "no such file",
    });
  }
  const local = resolve(options.cwd, "radar.yaml");
  if (local !== found?.path && local !== user && options.readTextFile(local) !== undefined) {
    candidates.push({
      source: "current folder",
      path: local,
      state: "ignored",
      reason: "never read implicitly; use --config ./radar.yaml",
    });
  }
  return { ...found, candidates };
}

/** The config file in use (see lookUpConfigFile). */
export function findConfigFile(options: Parameters<typeof lookUpConfigFile>[0]): ConfigFile {
  const { path, text } = lookUpConfigFile(options);
  return { path, text };
}
