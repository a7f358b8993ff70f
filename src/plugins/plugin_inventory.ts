/**
 * The read side of the plugin folders: what is installed where, what each plugin asks for
 * (resolved to a canonical grant), what changed since its approval, and which plugins may run.
 * Nothing here moves a folder or writes a record; `PluginManager` (the lifecycle) holds one.
 */
import { join } from "node:path";
import type { RadarConfig } from "../config/schema.ts";
import { NotFoundError, RadarError } from "../core/errors.ts";
import type { Clock } from "../core/ports.ts";
import {
  canonicalGrant,
  intersectGrants,
  type NarrowedGrant,
  narrowGrant,
  type PluginGrant,
  requestedGrant,
} from "../sandbox/permissions.ts";
import { protectedLocations, type RadarPlaces, radarPlacesFrom } from "../core/protected_paths.ts";
import {
  ensurePluginDirectories,
  folderNames,
  type PluginDirectories,
  pluginDirectories,
} from "./plugin_directories.ts";
import { pathExists } from "../adapters/os/quiet_fs.ts";
import { realPathOrUndefined } from "../config/quiet_stat.ts";
import { type PluginFolder, readPluginFolder } from "./plugin_files.ts";
import type { PluginApproval, PluginRecords } from "./plugin_records.ts";
import type { PluginStatus, PluginSummary } from "../core/plugin_state.ts";

/** An enabled plugin whose files match an approval, with the grant it runs with. */
export interface LoadedPlugin {
  folder: PluginFolder;
  grant: PluginGrant;
  approval: PluginApproval;
}

/** What the inventory and the manager need. */
export interface PluginManagerOptions {
  dataDir: string;
  records: PluginRecords;
  config: RadarConfig["plugins"];
  env: Record<string, string | undefined>;
  clock: Clock;
  /** Radar's places outside its data and XDG folders, cut out of every grant like those. */
  ownPlaces?: Pick<RadarPlaces, "configFile" | "backupFolder" | "browserProfile">;
}

/** Thrown for lifecycle requests that cannot be done; one readable line (exit code 1). */
export class PluginError extends RadarError {
  override name = "PluginError";
}

/** Reads the data directory's plugin folders and approvals. */
export class PluginInventory {
  readonly dirs: PluginDirectories;
  readonly home: string;
  private readonly options: PluginManagerOptions;

  constructor(options: PluginManagerOptions) {
    this.options = options;
    this.dirs = pluginDirectories(options.dataDir);
    this.home = options.env.HOME || options.env.USERPROFILE || "/";
    ensurePluginDirectories(this.dirs);
  }

  /** Every plugin in every lifecycle folder. */
  list(): PluginSummary[] {
    const rows: PluginSummary[] = [];
    const add = (dir: string, status: (name: string) => PluginStatus) => {
      for (const name of folderNames(dir)) {
        const result = readPluginFolder(join(dir, name));
        const manifest = result.ok ? result.folder.manifest : undefined;
        rows.push({
          name,
          version: manifest?.version ?? "?",
          trustLevel: manifest?.trust_level ?? "?",
          tools: manifest?.tools.map((tool) => tool.name) ?? [],
          status: status(name),
          description: manifest?.description ?? (result.ok ? "" : result.errors[0]),
        });
      }
    };
    add(
      this.dirs.available,
      (name) => pathExists(join(this.dirs.enabled, name)) ? "enabled" : "disabled",
    );
    add(this.dirs.pending, () => "pending_review");
    add(this.dirs.failed, () => "failed");
    return rows;
  }

  /** The grant a folder asks for, resolved as if it ran from available/NAME. */
  requestedGrantOf(folder: PluginFolder): PluginGrant {
    const result = requestedGrant(folder.manifest, {
      home: this.home,
      pluginDir: join(this.dirs.available, folder.name),
    });
    if (!result.ok) {
      throw new PluginError(`Cannot use plugin ${folder.name}: ${result.errors.join("; ")}`);
    }
    return canonicalGrant(canonicalizePaths(result.grant));
  }

  /**
   * A grant with Radar's own folders and every secret cut out (the shared protected list, by
   * lexical and real path); what a plugin runs with.
   */
  narrowed(grant: PluginGrant): NarrowedGrant {
    const places = radarPlacesFrom(this.options.env, this.options.dataDir);
    const locations = protectedLocations({ ...places, ...this.options.ownPlaces })
      .flatMap((location) => {
        const real = realPathOrUndefined(location.path);
        return real && real !== location.path
          ? [location, { ...location, path: real }]
          : [location];
      });
    return narrowGrant(grant, locations, (path) => {
      try {
        return [...Deno.readDirSync(path)].map((entry) => entry.name).sort();
      } catch {
        return undefined;
      }
    });
  }

  /** The grant an approved plugin runs with: requested ∩ approved, narrowed. */
  effectiveGrant(requested: PluginGrant, approved: PluginGrant): PluginGrant {
    return this.narrowed(intersectGrants(requested, approved)).grant;
  }

  /** Reads a plugin from a lifecycle folder (pending first, then available, then failed). */
  read(name: string): { folder?: PluginFolder; errors: string[]; location: string } {
    for (const dir of [this.dirs.pending, this.dirs.available, this.dirs.failed]) {
      const path = join(dir, name);
      if (!pathExists(path)) continue;
      const result = readPluginFolder(path);
      return result.ok
        ? { folder: result.folder, errors: [], location: path }
        : { errors: result.errors, location: path };
    }
    throw new NotFoundError(`Cannot find plugin ${name}: not installed (see radar plugin list)`);
  }

  /** Limits every plugin host runs with, from config. */
  limits() {
    const config = this.options.config;
    return {
      callTimeoutMs: config.call_timeout_seconds * 1000,
      memoryMb: config.memory_mb,
      maxResultChars: config.max_result_chars,
      env: this.options.env,
    };
  }

  /** Enabled plugins whose files match an approval, each with its effective grant. */
  loadEnabled(): LoadedPlugin[] {
    const loaded: LoadedPlugin[] = [];
    for (const name of folderNames(this.dirs.enabled)) {
      const result = readPluginFolder(join(this.dirs.available, name));
      if (!result.ok) continue;
      const approval = this.options.records.findApproval(name, result.folder.hash);
      if (!approval) continue;
      let requested: PluginGrant;
      try {
        requested = this.requestedGrantOf(result.folder);
      } catch {
        continue;
      }
      loaded.push({
        folder: result.folder,
        grant: this.effectiveGrant(requested, approval.grant),
        approval,
      });
    }
    return loaded;
  }
}

/** Resolves symbolic links in granted paths that exist (a grant names real folders). */
function canonicalizePaths(grant: PluginGrant): PluginGrant {
  const real = (path: string) => realPathOrUndefined(path) ?? path;
  return { ...grant, read: grant.read.map(real), write: grant.write.map(real) };
}
