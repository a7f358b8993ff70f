/**
 * The daemon's scheduled backup on an injected clock: off by default, one archive when the newest
 * is `every_hours` old, the newest `keep` kept, a failure retried an hour later (not every tick).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../../src/adapters/clock.ts";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { backupDatabase } from "../../../src/adapters/sqlite/maintenance.ts";
import { ScheduledBackup } from "../../../src/adapters/backup/scheduled_backup.ts";
import { listBackups } from "../../../src/adapters/backup/backup_folder.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import { memoryLogger } from "../../plugins/helpers.ts";

const hour = 60 * 60_000;

function fixture(backup: Partial<ReturnType<typeof defaultConfig>["backup"]>) {
  const dataDir = Deno.makeTempDirSync({ prefix: "radar-scheduled-backup-" });
  const db = openDatabase(join(dataDir, "radar.db"));
  const config = defaultConfig();
  config.backup = { ...config.backup, ...backup };
  const clock = new ManualClock(new Date("2026-11-23T22:30:00Z"));
  const lines: string[] = [];
  const job = new ScheduledBackup({
    config,
    snapshotDatabase: (path) => backupDatabase(db, path),
    dataDir,
    env: { HOME: dataDir },
    radarVersion: "0.1.0",
    clock,
    logger: memoryLogger(lines),
  });
  const tick = () => job.run(clock.now());
  const names = (folder = join(dataDir, "backups")) =>
    listBackups(folder).map((found) => found.name);
  const close = () => {
    db.close();
    Deno.removeSync(dataDir, { recursive: true });
  };
  return { dataDir, db, config, clock, lines, tick, names, close };
}

Deno.test("scheduled backups are off unless backup.every_hours is set", async () => {
  const run = fixture({});
  try {
    await run.tick();
    assert.deepEqual(run.names(), []);
  } finally {
    run.close();
  }
});

Deno.test("a scheduled backup is written when the newest is every_hours old; keep prunes the oldest", async () => {
  const run = fixture({ every_hours: 24, keep: 2 });
  try {
    await run.tick();
    assert.deepEqual(run.names(), ["radar-backup-20261123T223000Z.tar.gz"]);
    for (const step of [1, 1, 20]) {
      run.clock.advance(step * hour);
      await run.tick();
    }
    assert.equal(run.names().length, 1, "nothing new within 24 hours");
    run.clock.advance(2 * hour); // 24 h after the first
    await run.tick();
    run.clock.advance(24 * hour);
    await run.tick();
    assert.deepEqual(run.names(), [
      "radar-backup-20261125T223000Z.tar.gz",
      "radar-backup-20261124T223000Z.tar.gz",
    ]);
    assert.equal(run.lines.filter((line) => line.includes("scheduled backup written")).length, 3);
    // Other files in the folder are never touched by retention.
    Deno.writeTextFileSync(join(run.dataDir, "backups", "notes.txt"), "mine");
    run.clock.advance(24 * hour);
    await run.tick();
    assert.equal(Deno.readTextFileSync(join(run.dataDir, "backups", "notes.txt")), "mine");
  } finally {
    run.close();
  }
});

Deno.test("a failing scheduled backup is logged once and tried again an hour later", async () => {
  const run = fixture({ every_hours: 6, folder: "/proc/radar-cannot-write-here" });
  try {
    await run.tick();
    for (let minute = 0; minute < 59; minute++) {
      run.clock.advance(60_000);
      await run.tick();
    }
    const failures = () => run.lines.filter((line) => line.includes("scheduled backup failed"));
    assert.equal(failures().length, 1);
    run.clock.advance(60_000);
    await run.tick();
    assert.equal(failures().length, 2);
  } finally {
    run.close();
  }
});

Deno.test("backup.folder takes ~ for the home folder", async () => {
  const run = fixture({ every_hours: 1, folder: "~/my-backups" });
  try {
    await run.tick();
    assert.equal(run.names(join(run.dataDir, "my-backups")).length, 1);
  } finally {
    run.close();
  }
});
