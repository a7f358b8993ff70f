/**
 * `radar db recover`: copies everything SQLite can still read of a damaged radar.db into a new
 * database (`salvageDatabase`), keeps the damaged file (and its -wal/-shm) aside in
 * `<data>/damaged/`, never deleting it, and puts the new one in its place. `--to PATH` only
 * writes the copy there. The daemon must be stopped (it holds the file open).
 */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { ExitCode, RadarError } from "../../core/errors.ts";
import { salvageDatabase, type SalvageReport } from "../../adapters/sqlite/salvage.ts";
import { clearDamage } from "../../adapters/sqlite/damage_marker.ts";
import { runningDaemon } from "../../daemon/lock_file.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import { fileStamp } from "../../adapters/backup/backup_folder.ts";
import { pathExists, removeQuietly } from "../../adapters/os/quiet_fs.ts";

/** Moves the damaged file and its -wal/-shm into `folder`; returns where the file went. */
function setAside(path: string, folder: string, name: string): string {
  Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const kept = join(folder, name);
  for (const suffix of ["-wal", "-shm", ""]) {
    if (pathExists(`${path}${suffix}`)) Deno.renameSync(`${path}${suffix}`, `${kept}${suffix}`);
  }
  return kept;
}

function summary(report: SalvageReport): string[] {
  const lines: string[] = [];
  const copied = report.tables.reduce((sum, table) => sum + table.copied, 0);
  lines.push(`Copied ${copied} rows from ${report.tables.length} tables into ${report.target}.`);
  for (const table of report.tables.filter((entry) => !entry.complete)) {
    const lost = [
      table.unreadableStretches ? `${table.unreadableStretches} unreadable stretches` : "",
      table.unreadableRows ? `${table.unreadableRows} unreadable rows` : "",
    ].filter(Boolean).join(", ");
    lines.push(`  ${table.name}: ${table.copied} rows copied; ${lost || "some rows unreadable"}`);
  }
  const { cleared, standIns, dropped } = report.mended;
  if (cleared || standIns || dropped) {
    lines.push(
      `  links to lost rows: ${cleared} cleared, ${standIns} stand-in conversations, ` +
        `${dropped} rows dropped`,
    );
  }
  return lines;
}

/** Registers `db recover` under `db`. */
export function registerDbRecover(db: Command, context: CliContext): void {
  db.command("recover")
    .description(
      "copy what can still be read of a damaged database into a new one (the damaged file is kept aside)",
    )
    .option("--to <path>", "only write the copy there (radar.db stays as it is)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { to?: string; json?: boolean }) => {
      const { dataDir } = await context.config();
      const path = join(dataDir, "radar.db");
      if (!pathExists(path)) {
        throw new RadarError(`No database at ${path}: nothing to recover.`, ExitCode.notFound);
      }
      const daemon = runningDaemon(dataDir);
      if (daemon) {
        throw new RadarError(
          `Radar is running (PID ${daemon.pid}) and holds ${path}: stop it first (radar stop).`,
        );
      }
      const now = new Date();
      const target = options.to
        ? resolve(context.io.cwd, options.to)
        : join(dataDir, `radar.recovered-${fileStamp(now)}.db`);
      if (pathExists(target)) {
        throw new RadarError(
          `Cannot recover into ${target}: the file already exists.`,
          ExitCode.usage,
        );
      }
      Deno.writeFileSync(target, new Uint8Array(), { createNew: true, mode: 0o600 });
      let report: SalvageReport;
      try {
        report = salvageDatabase(path, target);
      } catch (error) {
        for (const suffix of ["", "-wal", "-shm"]) removeQuietly(`${target}${suffix}`);
        throw error;
      }
      if (report.integrity !== "ok") {
        throw new RadarError(
          `The recovered copy ${target} failed its own integrity check (${report.integrity}); ` +
            `${path} is unchanged.`,
        );
      }
      let keptAt: string | undefined;
      if (!options.to) {
        keptAt = setAside(path, join(dataDir, "damaged"), `radar-${fileStamp(now)}.db`);
        Deno.renameSync(target, path);
        clearDamage(path);
      }
      if (options.json) return printJson(context, { ...report, keptAt: keptAt ?? null });
      for (const line of summary(report)) context.io.stdout(`${line}\n`);
      context.io.stdout(
        keptAt
          ? `${path} is now the recovered database; the damaged one is kept at ${keptAt}.\n`
          : `${path} is unchanged; check the copy, then stop Radar and move it into place.\n`,
      );
    });
}
