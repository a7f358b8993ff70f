/** `radar backup [FILE]` and `radar restore FILE`: Radar's whole state in one checked archive. */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { NotFoundError, RadarError } from "../../core/errors.ts";
import { newestSchemaVersion, openDatabase } from "../../adapters/sqlite/database.ts";
import { backupDatabase } from "../../adapters/sqlite/maintenance.ts";
import { type BackupSummary, writeBackup } from "../../adapters/backup/write_backup.ts";
import { restoreBackup, type RestoreSummary } from "../../adapters/backup/restore_backup.ts";
import { backupFolder, backupName } from "../../adapters/backup/backup_folder.ts";
import { ensureDataDirectory } from "../../runtime/data_directory.ts";
import { acquireLock, runningDaemon } from "../../daemon/lock_file.ts";
import { isProcessAlive, processStartTime } from "../../adapters/os/process.ts";
import { userConfigPath } from "../../config/paths.ts";
import { radarVersion } from "../../version.ts";
import { formatStoredTime } from "../../core/zoned_time.ts";

/** What is never copied into a backup, said after every backup. */
const neverCopied =
  "never copied: the dashboard token (a new one is made), chat line history, logs, and secrets " +
  "kept in the OS keychain, password commands or environment variables";

/** Registers `backup` and `restore`. */
export function registerBackup(program: Command, context: CliContext): void {
  program.command("backup")
    .description(
      "write one consistent archive of the database, plugins, skills, personalities and config",
    )
    .argument("[file]", "where to write it (default: backup.folder, or <data>/backups/)")
    .action(async (file: string | undefined) => {
      const loaded = await context.config();
      const source = join(loaded.dataDir, "radar.db");
      try {
        Deno.statSync(source);
      } catch {
        throw new NotFoundError(`Cannot back up: no database yet at ${source}`);
      }
      const now = new Date();
      let target = file && resolve(context.io.cwd, file);
      if (!target) {
        const folder = backupFolder(loaded.config, loaded.dataDir, context.io.env);
        Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
        target = join(folder, backupName(now));
      }
      const db = openDatabase(source);
      try {
        const summary = await writeBackup({
          snapshotDatabase: (path) => backupDatabase(db, path),
          dataDir: loaded.dataDir,
          configPath: loaded.path,
          radarVersion,
          now,
        }, target);
        context.io.stdout(backupReport(summary));
      } finally {
        db.close();
      }
    });

  program.command("restore")
    .description("check a backup and restore it into the data folder (the daemon must be stopped)")
    .argument("<file>", "an archive written by radar backup")
    .option(
      "--replace-config",
      "also put the backup's config in place of yours (yours is kept aside)",
    )
    .action(async (file: string, options: { replaceConfig?: boolean }) => {
      const loaded = await context.config();
      const archive = resolve(context.io.cwd, file);
      try {
        Deno.statSync(archive);
      } catch {
        throw new NotFoundError(`Cannot restore from ${archive}: no such file`);
      }
      const { dataDir } = loaded;
      ensureDataDirectory(dataDir);
      const daemon = runningDaemon(dataDir);
      if (daemon) {
        throw new RadarError(
          `Cannot restore while Radar runs for ${dataDir} (PID ${daemon.pid}): stop it with \`radar stop\` first`,
        );
      }
      // Held while restoring: a `radar serve` started meanwhile is refused.
      const lock = acquireLock(
        dataDir,
        { pid: Deno.pid, startedAt: new Date().toISOString() },
        isProcessAlive,
        processStartTime,
      );
      const configTarget = loaded.path ?? userConfigPath(context.io.env);
      try {
        const summary = await restoreBackup({
          archive,
          dataDir,
          configTarget,
          replaceConfig: options.replaceConfig ?? false,
          newestSchemaVersion,
          now: new Date(),
        });
        const zone = loaded.config.radar.timezone || undefined;
        context.io.stdout(restoreReport(summary, configTarget, zone));
      } finally {
        lock.release();
      }
    });
}

function backupReport(summary: BackupSummary): string {
  const lines = [
    `Backed up Radar to ${summary.path} (${kib(summary.sizeBytes)}): the database ` +
    `(${kib(summary.databaseBytes)}, schema ${summary.schemaVersion}) and ${
      summary.files - 1
    } more files (config, plugins, skills, personalities).`,
  ];
  if (summary.secretsLeftOut.length) {
    lines.push(
      `Secrets left out of the config copy (re-enter them after a restore): ${
        summary.secretsLeftOut.join(", ")
      }.`,
    );
  }
  if (summary.secretsReferenced.length) {
    lines.push(
      `Referenced, not copied (the secret stays where it is): ${
        summary.secretsReferenced.join(", ")
      }.`,
    );
  }
  lines.push(`${neverCopied[0].toUpperCase()}${neverCopied.slice(1)}.`);
  if (summary.skipped.length) {
    lines.push(`Not archived (links or special files): ${summary.skipped.join(", ")}.`);
  }
  return `${lines.join("\n")}\n`;
}

function restoreReport(summary: RestoreSummary, configPath: string, timeZone?: string): string {
  const { manifest } = summary;
  const lines = [
    `Restored the backup of ${formatStoredTime(manifest.createdAt, timeZone, { zone: true })} ` +
    `(Radar ${manifest.radarVersion}, schema ${manifest.schemaVersion}, ${manifest.files.length} files; ` +
    "integrity and sums checked).",
    summary.aside
      ? `The previous state is in ${summary.aside}.`
      : "There was no previous state to keep.",
  ];
  const config = {
    none: "The backup holds no config (it ran on the defaults).",
    same: `The config ${configPath} already equals the backup's.`,
    written: `Wrote the backup's config to ${configPath}.`,
    replaced: `Replaced ${configPath} with the backup's (yours is in ${
      summary.aside ?? "the aside folder"
    }).`,
    kept:
      `Kept your config ${configPath}; the backup's is ${summary.configCopy} (--replace-config uses it).`,
  }[summary.config];
  lines.push(config);
  if (manifest.secretsLeftOut.length && summary.config !== "kept") {
    lines.push(`Re-enter these secrets in ${configPath}: ${manifest.secretsLeftOut.join(", ")}.`);
  }
  lines.push("Start Radar again with `radar start` (or `radar serve`).");
  return `${lines.join("\n")}\n`;
}

function kib(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}
