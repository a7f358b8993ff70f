/**
 * `radar restore`: unpacks a backup into a staging folder inside the data folder, checks it
 * (manifest sums, SQLite integrity, schema version not newer than this Radar, exactly the schema
 * objects Radar's migrations create for that version: `schema_check.ts`), then moves the
 * current state aside (`<data>/before-restore/<time>/`) and the backup into place by renames.
 * The caller holds the data folder's lock: no daemon runs meanwhile.
 */
import { join } from "node:path";
import { RadarError } from "../../core/errors.ts";
import { pathExists, removeQuietly } from "../os/quiet_fs.ts";
import { fileStamp } from "./backup_folder.ts";
import { checkDatabaseFile } from "../sqlite/maintenance.ts";
import { schemaProblem } from "../sqlite/schema_check.ts";
import { type BackupManifest, configName, databaseName, dataFolders } from "./backup_manifest.ts";
import { defaultRestoreLimits, extractBackup, type RestoreLimits } from "./read_backup.ts";
import { readUserVersion } from "./write_backup.ts";

/** What to restore, and where. */
export interface RestorePlan {
  archive: string;
  dataDir: string;
  /** Where this Radar reads its config (the backup's goes there when none exists yet). */
  configTarget: string;
  /** Put the backup's config in place of an existing one (moved aside). */
  replaceConfig: boolean;
  /** The newest schema this Radar knows. */
  newestSchemaVersion: number;
  now: Date;
  limits?: RestoreLimits;
}

/** What a restore did. */
export interface RestoreSummary {
  manifest: BackupManifest;
  /** Where the previous state was moved (absent: there was none). */
  aside?: string;
  /** written: there was no config; replaced: the old one is aside; kept: the backup's is aside. */
  config: "none" | "written" | "replaced" | "kept" | "same";
  /** The backup's config when the current one was kept. */
  configCopy?: string;
}

/** The parts of the data folder a restore replaces (the database with its WAL files). */
const replaced = [`${databaseName}`, `${databaseName}-wal`, `${databaseName}-shm`, ...dataFolders];

/** Checks the archive and restores it into `plan.dataDir`. */
export async function restoreBackup(plan: RestorePlan): Promise<RestoreSummary> {
  const { dataDir } = plan;
  // A restore killed midway leaves its staging folder; the caller holds the lock, so none is live.
  for (const entry of Deno.readDirSync(dataDir)) {
    if (entry.isDirectory && entry.name.startsWith(".restore-")) {
      removeQuietly(join(dataDir, entry.name));
    }
  }
  const staging = Deno.makeTempDirSync({ dir: dataDir, prefix: ".restore-" });
  try {
    const manifest = await extractBackup(
      plan.archive,
      staging,
      plan.limits ?? defaultRestoreLimits,
    );
    checkDatabase(plan, join(staging, databaseName), manifest);
    const aside = join(dataDir, "before-restore", fileStamp(plan.now));
    const moved = moveInto(dataDir, aside, replaced);
    try {
      Deno.renameSync(join(staging, databaseName), join(dataDir, databaseName));
      for (const folder of dataFolders) {
        const from = join(staging, "data", folder);
        if (pathExists(from)) Deno.renameSync(from, join(dataDir, folder));
      }
      relinkEnabledPlugins(dataDir, manifest.enabledPlugins);
    } catch (error) {
      // Put the previous state back: a half restore is worse than none.
      for (const name of replaced) removeQuietly(join(dataDir, name));
      for (const name of moved) Deno.renameSync(join(aside, name), join(dataDir, name));
      throw new RadarError(
        `Cannot restore into ${dataDir}: ${(error as Error).message} (nothing changed)`,
        1,
        { cause: error },
      );
    }
    const config = placeConfig(plan, join(staging, configName), moved.length ? aside : undefined);
    return { manifest, aside: moved.length ? aside : undefined, ...config };
  } finally {
    removeQuietly(staging);
  }
}

/** The archived database must be intact and of a schema this Radar can open. */
function checkDatabase(plan: RestorePlan, path: string, manifest: BackupManifest): void {
  const version = readUserVersion(path);
  if (version !== manifest.schemaVersion) {
    throw new RadarError(
      `Cannot restore from ${plan.archive}: its database has schema ${version}, the manifest says ${manifest.schemaVersion}`,
    );
  }
  if (version > plan.newestSchemaVersion) {
    throw new RadarError(
      `Cannot restore from ${plan.archive}: it was made by a newer Radar (${manifest.radarVersion}, ` +
        `schema ${version}; this Radar knows up to ${plan.newestSchemaVersion}): update Radar first`,
    );
  }
  const check = checkDatabaseFile(path);
  for (const suffix of ["-wal", "-shm"]) removeQuietly(`${path}${suffix}`);
  if (!check.ok) {
    const problem = check.problems.find((line) => line !== "ok") ??
      `${check.foreignKeyProblems} rows point at missing parents`;
    throw new RadarError(
      `Cannot restore from ${plan.archive}: its database is damaged (${problem.slice(0, 200)})`,
    );
  }
  const foreign = schemaProblem(path, version);
  for (const suffix of ["-wal", "-shm"]) removeQuietly(`${path}${suffix}`);
  if (foreign) {
    throw new RadarError(
      `Cannot restore from ${plan.archive}: its database has ${foreign} (a backup holds only ` +
        `Radar's own schema)`,
    );
  }
}

/** Moves the existing `names` from `folder` into `aside` (created when needed). */
function moveInto(folder: string, aside: string, names: string[]): string[] {
  const present = names.filter((name) => pathExists(join(folder, name)));
  if (!present.length) return [];
  Deno.mkdirSync(aside, { recursive: true, mode: 0o700 });
  const moved: string[] = [];
  try {
    for (const name of present) {
      Deno.renameSync(join(folder, name), join(aside, name));
      moved.push(name);
    }
  } catch (error) {
    for (const name of moved) Deno.renameSync(join(aside, name), join(folder, name));
    throw new RadarError(
      `Cannot move ${join(folder, present[moved.length])} aside: ${
        (error as Error).message
      } (nothing changed)`,
      1,
      { cause: error },
    );
  }
  return moved;
}

/** Recreates `plugins/enabled/NAME → ../available/NAME` for plugins the backup holds. */
function relinkEnabledPlugins(dataDir: string, names: string[]): void {
  const enabled = join(dataDir, "plugins", "enabled");
  for (const name of names) {
    const available = join(dataDir, "plugins", "available", name);
    let folder = false;
    try {
      folder = Deno.lstatSync(available).isDirectory;
    } catch { /* not in the backup */ }
    if (!folder) continue;
    Deno.mkdirSync(enabled, { recursive: true, mode: 0o700 });
    Deno.symlinkSync(join("..", "available", name), join(enabled, name));
  }
}

/** Puts the backup's config where this Radar reads it, never over one without being asked. */
function placeConfig(
  plan: RestorePlan,
  staged: string,
  aside: string | undefined,
): Pick<RestoreSummary, "config" | "configCopy"> {
  if (!pathExists(staged)) return { config: "none" };
  const text = Deno.readTextFileSync(staged);
  const target = plan.configTarget;
  const current = pathExists(target) ? Deno.readTextFileSync(target) : undefined;
  if (current === text) return { config: "same" };
  const folder = aside ?? join(plan.dataDir, "before-restore", fileStamp(plan.now));
  if (current !== undefined && !plan.replaceConfig) {
    Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const copy = join(folder, `${configName}.from-backup`);
    Deno.writeTextFileSync(copy, text, { mode: 0o600 });
    return { config: "kept", configCopy: copy };
  }
  if (current !== undefined) {
    Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    Deno.renameSync(target, join(folder, configName));
  }
  Deno.mkdirSync(join(target, ".."), { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(target, text, { mode: 0o600 });
  return { config: current === undefined ? "written" : "replaced" };
}
