/**
 * Pure permission computation: manifest ∩ approval → the exact grant a plugin runs with, and that
 * grant as a Deno worker permission object and as `--allow-*` flags. Default deny: anything not
 * both asked for and approved is refused; `run`, `ffi`, `sys` and `import` are never granted.
 */
import { isAbsolute, join, normalize, resolve } from "node:path";
import type { PluginManifest } from "./manifest.ts";
import {
  isPathInside,
  type ProtectedLocation,
  type ProtectionKind,
} from "../core/protected_paths.ts";

/** The permissions one plugin runs with (absolute paths, lowercase hosts). */
export interface PluginGrant {
  read: string[];
  write: string[];
  net: string[];
  env: string[];
}

/** A grant with nothing in it: computation only. */
export const emptyGrant: PluginGrant = Object.freeze({
  read: [],
  write: [],
  net: [],
  env: [],
}) as PluginGrant;

/** Where relative and `~` paths in a manifest are anchored. */
export interface PathContext {
  home: string;
  pluginDir: string;
}

/** The result of resolving a manifest's requests: a grant or readable problems. */
export type GrantResult = { ok: true; grant: PluginGrant } | { ok: false; errors: string[] };

const hostPattern =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:]+\])(?::(\d{1,5}))?$/;
const envPattern = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Expands `~` and relative paths (against the plugin folder) and normalises `..` away. */
function expandPath(path: string, context: PathContext): string {
  let expanded = path;
  if (path === "~") expanded = context.home;
  else if (path.startsWith("~/")) expanded = join(context.home, path.slice(2));
  else if (!isAbsolute(path)) expanded = resolve(context.pluginDir, path);
  const normalized = normalize(expanded);
  return normalized.length > 1 ? normalized.replace(/\/+$/, "") : normalized;
}

/** Resolves what a manifest asks for into a grant; refuses malformed entries. */
export function requestedGrant(manifest: PluginManifest, context: PathContext): GrantResult {
  if (manifest.trust_level === "sandbox") return { ok: true, grant: { ...emptyGrant } };
  const errors: string[] = [];
  const paths = (kind: "read" | "write") =>
    unique(manifest.permissions[kind].map((path) => {
      if (path.includes(",") || path.includes("\0")) {
        errors.push(`permissions.${kind}: "${path}" contains a comma or NUL`);
      }
      return expandPath(path, context);
    }));
  const net = unique(manifest.permissions.net.map((host) => host.toLowerCase()));
  for (const host of net) {
    const match = hostPattern.exec(host);
    if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) {
      errors.push(`permissions.net: "${host}" is not a host or host:port`);
    }
  }
  const env = unique(manifest.permissions.env);
  for (const name of env) {
    if (!envPattern.test(name)) errors.push(`permissions.env: "${name}" is not a variable name`);
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, grant: { read: paths("read"), write: paths("write"), net, env } };
}

/** The intersection of what is asked for now and what a person approved (default deny). */
export function intersectGrants(requested: PluginGrant, approved: PluginGrant): PluginGrant {
  const keep = (kind: keyof PluginGrant) =>
    requested[kind].filter((entry) => approved[kind].includes(entry));
  return { read: keep("read"), write: keep("write"), net: keep("net"), env: keep("env") };
}

/** What a new request adds to or removes from an approved grant. */
export interface GrantDiff {
  added: PluginGrant;
  removed: PluginGrant;
}

/** Compares a requested grant against the approved one. */
export function diffGrants(approved: PluginGrant, requested: PluginGrant): GrantDiff {
  const minus = (a: PluginGrant, b: PluginGrant): PluginGrant => ({
    read: a.read.filter((x) => !b.read.includes(x)),
    write: a.write.filter((x) => !b.write.includes(x)),
    net: a.net.filter((x) => !b.net.includes(x)),
    env: a.env.filter((x) => !b.env.includes(x)),
  });
  return { added: minus(requested, approved), removed: minus(approved, requested) };
}

/** The Deno worker permission object for a grant: every kind explicit, never "inherit". */
export function workerPermissions(grant: PluginGrant): Deno.PermissionOptionsObject {
  const list = (entries: string[]) => (entries.length ? [...entries] : false);
  return {
    read: list(grant.read),
    write: list(grant.write),
    net: list(grant.net),
    env: list(grant.env),
    run: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/** The `--allow-*` flags for a plugin host process running this grant (no flag: denied). */
export function processFlags(grant: PluginGrant): string[] {
  const flags: string[] = [];
  if (grant.read.length) flags.push(`--allow-read=${grant.read.join(",")}`);
  if (grant.write.length) flags.push(`--allow-write=${grant.write.join(",")}`);
  if (grant.net.length) flags.push(`--allow-net=${grant.net.join(",")}`);
  if (grant.env.length) flags.push(`--allow-env=${grant.env.join(",")}`);
  return flags;
}

/** Stable JSON for hashing and storage (sorted entries). */
export function canonicalGrant(grant: PluginGrant): PluginGrant {
  return {
    read: [...grant.read].sort(),
    write: [...grant.write].sort(),
    net: [...grant.net].sort(),
    env: [...grant.env].sort(),
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A grant with Radar's own folders and secrets cut out, and what was cut. */
export interface NarrowedGrant {
  grant: PluginGrant;
  /** The protected locations the grant asked to reach, per kind. */
  cut: { read: ProtectedLocation[]; write: ProtectedLocation[] };
}

/** Lists the entries (names) of a folder; undefined when it is not a readable folder. */
export type FolderLister = (path: string) => string[] | undefined;

const cutKinds: Record<"read" | "write", readonly ProtectionKind[]> = {
  read: ["secret", "radar"],
  write: ["secret", "radar", "startup"],
};

/**
 * Cuts protected locations out of a grant. A granted path inside one is dropped; a granted
 * folder holding one is replaced by its entries, recursively along the way to the protected
 * location, leaving it out (e.g. read ["~/.local/share"] becomes every entry of ~/.local/share
 * except radar and keyrings). Entries created later are not granted: narrower, never wider.
 */
export function narrowGrant(
  grant: PluginGrant,
  locations: readonly ProtectedLocation[],
  list: FolderLister,
): NarrowedGrant {
  const cut = { read: [] as ProtectedLocation[], write: [] as ProtectedLocation[] };
  const narrow = (kind: "read" | "write") => {
    const relevant = locations.filter((location) => cutKinds[kind].includes(location.kind));
    const kept: string[] = [];
    const visit = (path: string, depth: number) => {
      const covering = relevant.find((location) => isPathInside(path, location.path));
      if (covering) return void cut[kind].push(covering);
      const inside = relevant.filter((location) => isPathInside(location.path, path));
      if (!inside.length) return void kept.push(path);
      const entries = depth < 12 ? list(path) : undefined;
      if (!entries) return void cut[kind].push(...inside);
      for (const name of entries) visit(join(path, name), depth + 1);
    };
    for (const path of grant[kind]) visit(path, 0);
    return unique(kept);
  };
  const read = narrow("read");
  const write = narrow("write");
  const distinct = (list: ProtectedLocation[]) =>
    list.filter((item, index) => list.findIndex((other) => other.path === item.path) === index);
  return {
    grant: { ...grant, read, write },
    cut: { read: distinct(cut.read), write: distinct(cut.write) },
  };
}
