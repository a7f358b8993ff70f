/**
 * The backup folder: names (`radar-backup-<UTC time>.tar.gz`), the newest one, retention; the
 * UTC timestamps of file and folder names (`fileStamp`, also the damaged-file folders).
 */
import { join } from "node:path";
import type { RadarConfig } from "../../config/schema.ts";
import { expandHome } from "../../config/paths.ts";

const namePattern = /^radar-backup-(\d{8}T\d{6}Z)\.tar\.gz$/;

/** `backup.folder` (with `~`), or `<data>/backups`. */
export function backupFolder(
  config: RadarConfig,
  dataDir: string,
  env: Record<string, string | undefined>,
): string {
  return config.backup.folder ? expandHome(config.backup.folder, env) : join(dataDir, "backups");
}

/** The archive name of a backup made at `at`. */
export function backupName(at: Date): string {
  return `radar-backup-${fileStamp(at)}.tar.gz`;
}

/** A backup found in the folder. */
export interface FoundBackup {
  name: string;
  at: Date;
}

/** The folder's backups, newest first (only names Radar writes; anything else is left alone). */
export function listBackups(folder: string): FoundBackup[] {
  const found: FoundBackup[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      const stamp = entry.isFile ? namePattern.exec(entry.name)?.[1] : undefined;
      if (!stamp) continue;
      const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T` +
        `${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`;
      const at = new Date(iso);
      if (!Number.isNaN(at.getTime())) found.push({ name: entry.name, at });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found.sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Deletes all but the newest `keep` backups; returns the names deleted. */
export function pruneBackups(folder: string, keep: number): string[] {
  const removed: string[] = [];
  for (const old of listBackups(folder).slice(keep)) {
    Deno.removeSync(join(folder, old.name));
    removed.push(old.name);
  }
  return removed;
}

/** A UTC timestamp usable in a file name: 20261123T181500Z. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}
