/**
 * Secrets given only through the environment (`secretEnvironmentNames`) stay out of the startup
 * cache file: the cached config holds them blank, and a quick start puts them back from the
 * environment, as the loader's overrides would. The cache key records only whether each is set.
 */
import type { LoadedConfig } from "../config/loader.ts";
import {
  environmentOverrides,
  secretEnvironmentNames,
  setConfigValue,
} from "../config/environment.ts";
import type { Environment } from "../config/paths.ts";

/** `loaded` with every secret the environment sets blanked (a copy when any is set). */
export function withoutEnvironmentSecrets(loaded: LoadedConfig, env: Environment): LoadedConfig {
  return withSecrets(loaded, env, () => "");
}

/** `loaded` with every secret the environment sets put back (a copy when any is set). */
export function withEnvironmentSecrets(loaded: LoadedConfig, env: Environment): LoadedConfig {
  return withSecrets(loaded, env, (name) => env[name]!);
}

function withSecrets(
  loaded: LoadedConfig,
  env: Environment,
  value: (name: string) => string,
): LoadedConfig {
  const set = environmentOverrides.filter(([name]) =>
    secretEnvironmentNames.includes(name) && env[name]
  );
  if (!set.length) return loaded;
  const copy = structuredClone(loaded);
  for (const [name, path] of set) {
    setConfigValue(copy.config as unknown as Record<string, unknown>, path, value(name));
  }
  return copy;
}
