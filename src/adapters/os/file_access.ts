/** Builds the path guard, Radar's places and the writable roots the file tools and exec share. */
import { configuredFolders, expandHome, homeDirectory } from "../../config/paths.ts";
import { isAbsolute, join, resolve } from "node:path";
import { parentPlaces, type RadarPlaces, radarPlacesFrom } from "../../core/protected_paths.ts";
import { userInfo } from "node:os";
import { PathGuard } from "./path_guard.ts";
import type { RadarConfig } from "../../config/schema.ts";

/**
 * What the path guard, the scratch folder and the sandbox spec are built from (the file tools,
 * exec, custom checks and MCP servers all pass these).
 */
export interface FileAccessDependencies {
  config: RadarConfig;
  /** The config file in use (write-protected by the path guard), if any. */
  configPath?: string;
  dataDir: string;
  env: Record<string, string | undefined>;
  /** Relative paths start here (default: the process's). */
  cwd?: string;
}

/**
 * Radar's own folders for these dependencies (data, config, cache) and the home folder, plus the
 * places protected whatever $HOME says: the account's home from the OS and the Radar that started
 * this one (`radar eval`).
 */
export function radarPlaces(
  deps:
    & Pick<FileAccessDependencies, "env" | "dataDir" | "configPath">
    & Partial<Pick<FileAccessDependencies, "config" | "cwd">>,
): RadarPlaces {
  const also = [accountPlaces(), parentPlaces(deps.env)].filter((places) => places !== undefined);
  const places = radarPlacesFrom(deps.env, deps.dataDir, deps.configPath, also);
  const cwd = deps.cwd ?? Deno.cwd();
  const instructionFolders = (deps.config?.skills?.dirs ?? []).map((path) =>
    resolve(cwd, expandHome(path, deps.env))
  );
  return {
    ...places,
    ...(instructionFolders.length ? { instructionFolders } : {}),
    ...(deps.config ? configuredFolders(deps.config, deps.env, cwd) : {}),
  };
}

let account: RadarPlaces | null | undefined;

/** The places of the account this process runs as, from the OS user database (not $HOME). */
function accountPlaces(): RadarPlaces | undefined {
  if (account === undefined) {
    try {
      const home = userInfo().homedir;
      account = home && home.startsWith("/")
        ? radarPlacesFrom({ HOME: home }, join(home, ".local", "share", "radar"))
        : null;
    } catch {
      account = null; // no entry for this uid, or no --allow-sys
    }
  }
  return account ?? undefined;
}

/** The path guard for these dependencies (rules from tools.files and Radar's places). */
export function pathGuardFor(deps: FileAccessDependencies): PathGuard {
  return new PathGuard({
    ...radarPlaces(deps),
    cwd: deps.cwd ?? Deno.cwd(),
    configPath: deps.configPath,
    blockedPaths: deps.config.tools.files.blocked_paths,
    allowedRoots: deps.config.tools.files.allowed_roots,
  });
}

/**
 * The scratch folder: tools.exec.scratch_dir, else `$XDG_STATE_HOME/radar/scratch`
 * (`~/.local/state/radar/scratch`). Outside Radar's data folder; created owner-only on first use.
 */
export function scratchFolder(
  deps: Pick<FileAccessDependencies, "config" | "env" | "cwd">,
): string {
  const configured = deps.config.tools.exec.scratch_dir;
  if (configured) {
    const expanded = expandHome(configured, deps.env);
    return isAbsolute(expanded) ? expanded : resolve(deps.cwd ?? Deno.cwd(), expanded);
  }
  const state = deps.env.XDG_STATE_HOME || join(homeDirectory(deps.env), ".local", "state");
  return join(state, "radar", "scratch");
}

/** Creates the scratch folder (0700) if needed and returns its real path. */
export function ensureScratchFolder(
  deps: Pick<FileAccessDependencies, "config" | "env" | "cwd">,
): string {
  const folder = scratchFolder(deps);
  Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
  Deno.chmodSync(folder, 0o700);
  return Deno.realPathSync(folder);
}

/**
 * Folders the guard accepts for writing, canonical: the ones listed in `configured` that pass
 * the guard (a root inside a protected location is dropped).
 */
export function checkedRoots(guard: PathGuard, configured: readonly string[]): string[] {
  return configured.map((root) => guard.check(root, "write"))
    .flatMap((verdict) => verdict.ok ? [verdict.path] : []);
}
