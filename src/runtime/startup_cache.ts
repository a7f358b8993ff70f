/**
 * The startup cache lets `radar ask` send its first request without loading the YAML parser, the
 * config schema, every tool and the plugin system (~150 ms): it keeps the validated config and the
 * tool catalog (names, descriptions, JSON Schemas) from the last full start, under a key made of
 * everything they were derived from. Any difference in the key is a miss; a miss loads everything
 * and rewrites the cache. The file holds config secrets, so it is owner-only like radar.yaml.
 */
import type { Tool } from "../core/tool.ts";
import { joinPath, parentPath } from "../core/file_path.ts";
import type { LoadedConfig } from "../config/loader.ts";
import type { ConfigFile } from "../config/config_file.ts";
import { configEnvironmentNames, secretEnvironmentNames } from "../config/environment.ts";
import { type Environment, homeDirectory } from "../config/paths.ts";
import { radarVersion } from "../version.ts";
import { isStartupCache } from "./startup_cache_shape.ts";
import { writeTextFileAtomically } from "../adapters/atomic_file.ts";

/** A tool as offered to the model, without its implementation. */
export type CatalogTool = Pick<
  Tool,
  "name" | "description" | "parameters" | "source" | "alwaysOn" | "keywords"
>;

/** What the cache file holds. */
export interface StartupCache {
  /** Everything the cached config was derived from (see `startupKey`). */
  key: string;
  loaded: LoadedConfig;
  /** Fingerprint of the enabled plugins the catalog was built with (see `pluginStamp`). */
  plugins: string;
  tools: CatalogTool[];
  /** False when the first request needs the full runtime (plugins with prompt variables). */
  quickStart: boolean;
  /** The usable Agent Skills for the system prompt, and the stamp of the files they came from. */
  skills: {
    stamp: string;
    list: Array<{ name: string; description: string; requires: { bins: string[]; env: string[] } }>;
  };
}

/** `$XDG_CACHE_HOME/radar/startup.json` (default `~/.cache/radar/startup.json`). */
export function startupCachePath(env: Environment): string {
  const base = env.XDG_CACHE_HOME || joinPath(homeDirectory(env), ".cache");
  return joinPath(base, "radar", "startup.json");
}

/**
 * The cache key: Radar's version and build, the config file's path and text, the working folder
 * (relative paths) and every environment variable the loader reads (for secrets: only whether
 * they are set; their values stay out of the file, see environment_secrets.ts).
 */
export function startupKey(file: ConfigFile, env: Environment, cwd: string): string {
  const variables = configEnvironmentNames.map((name) => [
    name,
    secretEnvironmentNames.includes(name) ? Boolean(env[name]) : env[name] ?? null,
  ]);
  return JSON.stringify({
    version: radarVersion,
    build: buildStamp(),
    path: file.path ?? null,
    text: file.text ?? null,
    cwd,
    variables,
  });
}

let cachedBuildStamp: string | undefined;
/** Code the cache is derived from, relative to this module: folders (their mtime) and files. */
const derivedFrom = [
  "../config/",
  "../tools/",
  "../tools/exec/",
  "../plugins/",
  "../config/schema.ts",
  "../tools/index.ts",
  "../version.ts",
];

/**
 * Identifies the code that produced a cache: the executable's modification time (a new compiled
 * binary is a new build) and, when running from source, the modification times of the folders
 * and key files the config and the tool catalog come from (a few stat calls: walking every file
 * would cost 3–4 ms on each start). An edit these miss (a file rewritten in place) is caught when
 * the real tools load: the session compares the fresh catalog and config with the cache and
 * rewrites it.
 */
export function buildStamp(): string {
  if (cachedBuildStamp !== undefined) return cachedBuildStamp;
  const parts = [modifiedAt(Deno.execPath())];
  for (const relative of derivedFrom) {
    const url = new URL(relative, import.meta.url);
    if (url.protocol === "file:") parts.push(modifiedAt(decodeURIComponent(url.pathname)));
  }
  cachedBuildStamp = parts.join(":");
  return cachedBuildStamp;
}

/** Folder depth the plugin stamp walks (plugins nest less: see pluginFolderLimits). */
const stampDepth = 8;

/**
 * Fingerprint of `<data>/plugins/enabled`: each enabled plugin's name and the paths, sizes and
 * modification times of its files, subfolders included. Enabling, disabling or editing a plugin
 * changes it.
 */
export function pluginStamp(dataDir: string): string {
  const enabled = joinPath(dataDir, "plugins", "enabled");
  const parts: string[] = [];
  for (const name of sortedNames(enabled)) {
    parts.push(name);
    stampFiles(joinPath(enabled, name), "", 0, parts);
  }
  return parts.join("|");
}

function stampFiles(root: string, relative: string, depth: number, parts: string[]): void {
  const folder = relative ? joinPath(root, relative) : root;
  for (const name of sortedNames(folder)) {
    const path = relative ? `${relative}/${name}` : name;
    try {
      const info = Deno.statSync(joinPath(folder, name));
      parts.push(`${path}:${info.size}:${info.mtime?.getTime() ?? 0}`);
      if (info.isDirectory && depth < stampDepth) stampFiles(root, path, depth + 1, parts);
    } catch {
      parts.push(`${path}:?`);
    }
  }
}

/** Bytes beyond which a cache file is not read (a real one is tens of kilobytes). */
export const maxStartupCacheBytes = 16 * 1024 * 1024;

/**
 * Reads the cache; undefined when absent, unreadable, not shaped like a cache, too big, or
 * writable or readable by anyone but its owner, the user running Radar (it decides where the
 * first request goes, and a file others could write could send it anywhere).
 */
export function readStartupCache(path: string): StartupCache | undefined {
  try {
    const text = readOwnerOnlyText(path);
    if (text === undefined) return undefined;
    const value = JSON.parse(text);
    return isStartupCache(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache atomically (temp file + rename), owner-only. Returns an error message instead
 * of throwing: a cache that cannot be written only costs the next start its speed.
 */
export function writeStartupCache(path: string, cache: StartupCache): string | undefined {
  try {
    Deno.mkdirSync(parentPath(path), { recursive: true, mode: 0o700 });
    writeTextFileAtomically(path, JSON.stringify(cache));
    return undefined;
  } catch (error) {
    return `Cannot write the startup cache ${path}: ${(error as Error).message}`;
  }
}

/**
 * The file's text when it is a regular file (not a link) of bounded size, owned by this user and
 * private, in a folder of theirs nobody else can write (so it cannot be swapped after the check).
 */
function readOwnerOnlyText(path: string): string | undefined {
  const file = Deno.lstatSync(path);
  if (!file.isFile || file.size > maxStartupCacheBytes) return undefined;
  if (Deno.build.os !== "windows") {
    const folder = Deno.statSync(parentPath(path));
    const uid = Deno.uid();
    const shared = ((file.mode ?? 0) & 0o077) !== 0 || ((folder.mode ?? 0) & 0o022) !== 0;
    if (shared || file.uid !== uid || folder.uid !== uid) return undefined;
  }
  return Deno.readTextFileSync(path);
}

function modifiedAt(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

function sortedNames(folder: string): string[] {
  try {
    return [...Deno.readDirSync(folder)].map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}
