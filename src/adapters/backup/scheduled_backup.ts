/**
 * The daemon's scheduled backup (`backup.every_hours`): a tick job that writes an archive when
 * the newest one in the folder is that old, then keeps the newest `backup.keep`. A failure is
 * logged and tried again an hour later, not on every tick.
 */
import { join } from "node:path";
import type { RadarConfig } from "../../config/schema.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { backupFolder, backupName, listBackups, pruneBackups } from "./backup_folder.ts";
import { type BackupSources, writeBackup } from "./write_backup.ts";

/** What the scheduled backup needs: what a backup is written from, and the settings. */
interface ScheduledBackupDependencies extends Omit<BackupSources, "now"> {
  config: RadarConfig;
  env: Record<string, string | undefined>;
  clock: Clock;
  logger: Logger;
}

const hourMs = 60 * 60_000;

/** A tick job: a backup when one is due. */
export class ScheduledBackup {
  readonly name = "backup";
  #failedAt = -Infinity;
  constructor(private readonly deps: ScheduledBackupDependencies) {}

  /** Writes a backup if `backup.every_hours` have passed since the newest. Never throws. */
  async run(now: Date): Promise<void> {
    const { deps } = this;
    const { every_hours: everyHours, keep } = deps.config.backup;
    if (!everyHours) return;
    if (now.getTime() - this.#failedAt < Math.min(everyHours * hourMs, hourMs)) return;
    const folder = backupFolder(deps.config, deps.dataDir, deps.env);
    try {
      const [newest] = listBackups(folder);
      if (newest && now.getTime() - newest.at.getTime() < everyHours * hourMs) return;
      Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
      const summary = await writeBackup({ ...deps, now }, join(folder, backupName(now)));
      const removed = pruneBackups(folder, keep);
      deps.logger.info("scheduled backup written", {
        path: summary.path,
        bytes: summary.sizeBytes,
        removed: removed.length,
      });
    } catch (error) {
      this.#failedAt = now.getTime();
      deps.logger.warn("scheduled backup failed; trying again in an hour", {
        folder,
        error: (error as Error).message,
      });
    }
  }
}
