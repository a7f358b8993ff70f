/** Finding the config file: which candidate wins, and its text. */
import { resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { configCandidates, type Environment } from "./paths.ts";

/** The config file in use (path and text), or neither when Radar runs on embedded defaults. */
export interface ConfigFile {
  path?: string;
  text?: string;
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
 * Looks the config file up: `--config PATH`, then RADAR_CONFIG (both must exist), then
 * ./radar.yaml, then $XDG_CONFIG_HOME/radar/radar.yaml.
 */
export function findConfigFile(options: {
  explicitPath?: string;
  env: Environment;
  cwd: string;
  readTextFile: (path: string) => string | undefined;
}): ConfigFile {
  const explicit = options.explicitPath || options.env.RADAR_CONFIG;
  if (explicit) {
    const path = resolve(options.cwd, explicit);
    const text = options.readTextFile(path);
    if (text === undefined) throw new ConfigError(`Cannot read config ${path}: file not found`);
    return { path, text };
  }
  for (const candidate of configCandidates(options.env, options.cwd)) {
    const text = options.readTextFile(candidate);
    if (text !== undefined) return { path: candidate, text };
  }
  return {};
}
