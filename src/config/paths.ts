/** Where Radar looks for its config file and keeps its data. */
import { isAbsolute, join, resolve } from "node:path";
import type { RadarPlaces } from "../core/protected_paths.ts";

/** Environment access, injectable for tests. */
export type Environment = Record<string, string | undefined>;

/** The user's home directory, from the environment. */
export function homeDirectory(env: Environment): string {
  return env.HOME || env.USERPROFILE || "/";
}

/** Expands a leading `~` or `~/` to the home directory. `~user` is left as it is. */
export function expandHome(path: string, env: Environment): string {
  if (path === "~") return homeDirectory(env);
  if (path.startsWith("~/")) return join(homeDirectory(env), path.slice(2));
  return path;
}

/** Shows a path with the home folder as `~`. */
export function displayPath(path: string, home: string): string {
  if (home && home !== "/" && (path === home || path.startsWith(`${home}/`))) {
    return `~${path.slice(home.length)}`;
  }
  return path;
}

/** The user's config file: $XDG_CONFIG_HOME/radar/radar.yaml (default ~/.config/radar/radar.yaml). */
export function userConfigPath(env: Environment): string {
  const xdg = env.XDG_CONFIG_HOME || join(homeDirectory(env), ".config");
  return join(xdg, "radar", "radar.yaml");
}

/** The data directory: RADAR_DATA_DIR, then config radar.data_dir, then XDG_DATA_HOME/radar. */
export function dataDirectory(env: Environment, configured: string, cwd: string): string {
  const chosen = env.RADAR_DATA_DIR || configured;
  if (chosen) {
    const expanded = expandHome(chosen, env);
    return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  }
  const xdg = env.XDG_DATA_HOME || join(homeDirectory(env), ".local", "share");
  return join(xdg, "radar");
}

/**
 * Radar's folders the config may put anywhere: `backup.folder` (its archives hold the database),
 * and a kept browser profile given as a path (`browser.profile`; a name is a folder in the data
 * folder, as `profileFolder` in src/runtime/browser_parts.ts says).
 */
export function configuredFolders(
  config: { backup: { folder: string }; browser: { profile: string } },
  env: Environment,
  cwd: string,
): Pick<RadarPlaces, "backupFolder" | "browserProfile"> {
  const backup = config.backup.folder ? resolve(cwd, expandHome(config.backup.folder, env)) : "";
  const profile = config.browser.profile ? expandHome(config.browser.profile, env) : "";
  return {
    ...(backup ? { backupFolder: backup } : {}),
    ...(isAbsolute(profile) ? { browserProfile: profile } : {}),
  };
}
