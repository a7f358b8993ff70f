/**
 * The concrete `ConfigFile` for /config: validates text exactly as the CLI loads a file
 * (`loadConfig` with the same env overrides and error messages), writes atomically and tells
 * which keys changed; an optional `apply` hook applies what it can without a restart.
 */
import { writeTextFileAtomically } from "../src/config/atomic_file.ts";
import { dirname } from "node:path";
import { loadConfig, type LoadedConfig } from "../src/config/loader.ts";
import { environmentOverrides } from "../src/config/environment.ts";
import { type Environment, userConfigPath } from "../src/config/paths.ts";
import { changedConfigKeys } from "../src/runtime/live_config.ts";
import type { ConfigFile } from "./ports.ts";

/** Options of the file-backed config editor. */
export interface ConfigFileOptions {
  loaded: LoadedConfig;
  env: Environment;
  cwd: string;
  /** Applies a new config live; returns the keys it applied ("llm.temperature"). */
  apply?: (loaded: LoadedConfig) => string[];
}

function readIfExists(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** A ConfigFile over the real file system. */
export function fileConfigFile(options: ConfigFileOptions): ConfigFile {
  let loaded = options.loaded;
  const target = () => loaded.path ?? userConfigPath(options.env);
  const validate = (text: string) =>
    loadConfig({
      explicitPath: target(),
      env: options.env,
      cwd: options.cwd,
      readTextFile: () => text,
    });
  return {
    current: () => loaded,
    targetPath: target,
    readText: () => readIfExists(target()),
    overrides: () =>
      environmentOverrides.filter(([name]) => options.env[name]).map(([name]) => name),
    validate,
    save(text) {
      const next = validate(text);
      const path = target();
      Deno.mkdirSync(dirname(path), { recursive: true });
      writeTextFileAtomically(path, text);
      const changed = changedConfigKeys(loaded.config, next.config);
      loaded = { ...next, path };
      const applied = options.apply?.(loaded) ?? [];
      return { applied, needsRestart: changed.filter((key) => !applied.includes(key)) };
    },
  };
}
