/** `radar db check|recover|backup`: integrity, salvaging a damaged file, owner-only copies. */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { openDatabase } from "../../adapters/sqlite/database.ts";
import {
  backupDatabase,
  checkDatabaseFile,
  recordCheck,
} from "../../adapters/sqlite/maintenance.ts";
import { clearDamage, recordDamage } from "../../adapters/sqlite/damage_marker.ts";
import { damageAdvice } from "../../core/errors.ts";
import { fileStamp } from "../../adapters/backup/backup_folder.ts";
import { registerDbRecover } from "./db_recover.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";

/** Registers `db` (check, recover, backup). */
export function registerDb(program: Command, context: CliContext): void {
  const db = program.command("db").description(
    "check the database, recover a damaged one, or back it up",
  );

  db.command("check")
    .description("run SQLite's integrity and foreign key checks (exit 1 when damaged)")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const { dataDir } = await context.config();
      const path = join(dataDir, "radar.db");
      try {
        Deno.statSync(path);
      } catch {
        context.io.stdout(`No database yet at ${path}.\n`);
        return;
      }
      const check = checkDatabaseFile(path);
      recordCheck(dataDir, check, new Date());
      // Every command refuses a damaged file from now on (and works again once it is intact).
      if (check.ok) clearDamage(path);
      else {
        recordDamage(
          path,
          check.problems.find((problem) => problem !== "ok") ?? "damaged",
          new Date(),
        );
      }
      if (options.json) printJson(context, check);
      else if (check.ok) {
        context.io.stdout(
          `Database ${path} is intact (integrity and foreign keys checked in ${check.durationMs} ms, ` +
            `${(check.sizeBytes / 1024).toFixed(0)} KiB).\n`,
        );
      } else {
        const problems = check.problems.filter((problem) => problem !== "ok");
        if (check.foreignKeyProblems) {
          problems.push(`${check.foreignKeyProblems} rows point at missing parents`);
        }
        context.io.stdout(`Database ${path} is damaged:\n`);
        for (const problem of problems) context.io.stdout(`  ${problem}\n`);
        context.io.stdout(`To recover: ${damageAdvice}.\n`);
      }
      if (!check.ok) context.setExitCode(1);
    });

  registerDbRecover(db, context);

  db.command("backup")
    .description("write a consistent, owner-only copy of the database (default: <data>/backups/)")
    .argument("[path]", "where to write the copy (must not exist)")
    .action(async (target: string | undefined) => {
      const { dataDir } = await context.config();
      const source = join(dataDir, "radar.db");
      // A relative path is the user's: it resolves against the folder they ran the command in.
      let path = target && resolve(context.io.cwd, target);
      if (!path) {
        const folder = join(dataDir, "backups");
        Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
        path = join(folder, `radar-${fileStamp(new Date())}.db`);
      }
      const database = openDatabase(source);
      try {
        const { sizeBytes } = await backupDatabase(database, path);
        context.io.stdout(
          `Backed up ${source} to ${path} (${(sizeBytes / 1024).toFixed(0)} KiB). ` +
            "To restore: stop Radar, delete radar.db-wal and radar.db-shm, copy it over radar.db.\n",
        );
      } finally {
        database.close();
      }
    });
}
