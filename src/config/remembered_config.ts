/**
 * The validated config remembered between processes: a start whose config, environment and
 * Radar are unchanged skips loading and building the zod schema (about 45 ms of `radar ask`).
 *
 * The entry is `config_cache.json` in the data folder (owner-only), which no tool, plugin, MCP
 * server or model can read or write (docs/security.md), and which backups leave out. Its key
 * covers everything validation reads: the config file's path and bytes, the environment
 * overrides, Deno's version (time zones, URL parsing), and the loader's sources and packages
 * (their generated fingerprint, plus the sources' sizes and times when running from a checkout).
 * An entry under another key, altered (its digest no longer matches), unreadable, or for another
 * data folder is ignored: the loader validates in full, as without it, and remembers the result.
 * A secret the environment gives (an API key, a token) is never written: that config is validated
 * on every start.
 */
import "./zod_jitless.ts";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { writeTextFileAtomically } from "./atomic_file.ts";
import { type ConfigFile, findConfigFile } from "./config_file.ts";
import { configSchemaFingerprint, configSchemaSources } from "./config_fingerprint.ts";
import { environmentOverrides } from "./environment.ts";
import type { LoadedConfig, LoadOptions } from "./loader.ts";
import { dataDirectory, type Environment } from "./paths.ts";

/** The entry's file name in the data folder. */
export const rememberedConfigName = "config_cache.json";

const entryFormat = 1;

/** What the entry keeps: a `LoadedConfig` but its data folder (derived from the config). */
type Remembered = Omit<LoadedConfig, "dataDir">;

/**
 * `loadConfig`, answered from the remembered entry when its key matches; otherwise the loader
 * (loaded now) validates in full, `beforeRemembering` runs with the result (the config check
 * child makes the data folder there), and the result is remembered when the data folder exists.
 * Throws what `loadConfig` throws.
 */
export async function loadRememberedConfig(
  options: LoadOptions,
  beforeRemembering?: (loaded: LoadedConfig) => void,
): Promise<LoadedConfig> {
  const { file, key, remembered } = lookUp(options);
  if (remembered) return remembered;
  const { loadConfigFile } = await loaderModule();
  const loaded = loadConfigFile(file, options);
  beforeRemembering?.(loaded);
  await remember(loaded, key, options);
  return loaded;
}

/**
 * The remembered entry when its key matches (no loader, no schema), else undefined: the caller
 * validates, e.g. with `loadRememberedConfig`.
 */
export function readRememberedConfig(options: LoadOptions): LoadedConfig | undefined {
  return lookUp(options).remembered;
}

function lookUp(
  options: LoadOptions,
): { file: ConfigFile; key: string; remembered: LoadedConfig | undefined } {
  const file = findConfigFile(options);
  const key = entryKey(file, options.env);
  const dataDir = dataDirectory(
    options.env,
    configuredDataDir(file.text, options.env),
    options.cwd,
  );
  const remembered = readEntry(join(dataDir, rememberedConfigName), key, options);
  return { file, key, remembered: remembered?.dataDir === dataDir ? remembered : undefined };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The key: SHA-256 of every input of validation. */
function entryKey(file: ConfigFile, env: Environment): string {
  return sha256(JSON.stringify([
    entryFormat,
    Deno.version.deno,
    configSchemaFingerprint,
    sourceStamps(),
    file.path ?? null,
    file.text ?? null,
    environmentOverrides.map(([name]) => env[name] ?? null),
  ]));
}

/** Each loader source's size and change time, when Radar runs from a checkout ("-" otherwise). */
function sourceStamps(): string[] {
  return configSchemaSources.map((path) => {
    try {
      const info = Deno.statSync(new URL(`../../${path}`, import.meta.url));
      return `${info.size}:${info.mtime?.getTime()}`;
    } catch {
      return "-";
    }
  });
}

/**
 * `radar.data_dir` as the file sets it, to find the entry before validating ("" when unsure; a
 * wrong guess only misses: an entry is used only for the data folder its config names). A file
 * that never says `data_dir` is not parsed.
 */
function configuredDataDir(text: string | undefined, env: Environment): string {
  if (text === undefined || env.RADAR_DATA_DIR || !text.includes("data_dir")) return "";
  try {
    const document = parseDocument(text);
    if (document.errors.length) return "";
    const value = document.toJS({ maxAliasCount: 100 })?.radar?.data_dir;
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

function fromRemembered(remembered: Remembered, options: LoadOptions): LoadedConfig {
  const { config, path, warnings, unknownKeys } = remembered;
  return {
    config,
    path,
    dataDir: dataDirectory(options.env, config.radar.data_dir, options.cwd),
    warnings,
    ...(unknownKeys ? { unknownKeys } : {}),
  };
}

function readEntry(file: string, key: string, options: LoadOptions): LoadedConfig | undefined {
  try {
    const entry = JSON.parse(Deno.readTextFileSync(file));
    if (entry?.format !== entryFormat || entry.key !== key || typeof entry.body !== "string") {
      return undefined;
    }
    if (entry.digest !== sha256(`${key}\n${entry.body}`)) return undefined;
    return fromRemembered(JSON.parse(entry.body), options);
  } catch {
    return undefined; // absent, unreadable or malformed: validated in full
  }
}

/**
 * True when the environment gives a secret (an API key or a token): a secret kept in a variable
 * stays off the disk, so that config is validated on every start instead of remembered.
 */
export function secretFromEnvironment(env: Environment): boolean {
  return environmentOverrides.some(([name, path]) =>
    /(^|_)(api_key|token)$/.test(path.at(-1) ?? "") && (env[name] ?? "") !== ""
  );
}

/**
 * Writes the entry when the result survives JSON exactly, holds no secret from the environment
 * and the data folder exists.
 */
async function remember(loaded: LoadedConfig, key: string, options: LoadOptions): Promise<void> {
  if (secretFromEnvironment(options.env)) return;
  const { dataDir: _, ...remembered } = loaded;
  const body = JSON.stringify(remembered);
  const { isDeepStrictEqual } = await import("node:util");
  if (!isDeepStrictEqual(fromRemembered(JSON.parse(body), options), loaded)) return;
  try {
    writeTextFileAtomically(
      join(loaded.dataDir, rememberedConfigName),
      JSON.stringify({ format: entryFormat, key, digest: sha256(`${key}\n${body}`), body }),
    );
  } catch {
    // No data folder yet (the first start makes it) or not writable: validated again next time.
  }
}

/** The config loader (and its schema), loaded only when nothing is remembered. */
function loaderModule(): Promise<typeof import("./loader.ts")> {
  return import(new URL("./loader.ts", import.meta.url).href);
}
