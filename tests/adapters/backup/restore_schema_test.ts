/**
 * `radar restore` accepts only the schema objects Radar's own migrations create: an intact
 * database with a trigger (one made every model-scheduled task look like the user's own), a view,
 * an extra table or index, an altered table or a missing index is refused with one line, and the
 * current state stays as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { restoreBackup } from "../../../src/adapters/backup/restore_backup.ts";
import {
  migrate,
  newestSchemaVersion,
  openDatabase,
} from "../../../src/adapters/sqlite/database.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";
import { RadarError } from "../../../src/core/errors.ts";
import { craftArchive } from "./archive_helpers.ts";

const now = new Date("2026-11-23T18:15:00Z");

/** A database file of schema `version` as Radar makes it, then changed by `sql`. */
function databaseBytes(folder: string, sql: string, version: number): Uint8Array {
  const path = join(folder, `made-${crypto.randomUUID()}.db`);
  const db = new DatabaseSync(path);
  migrate(db, migrations.filter((step) => step.version <= version));
  if (sql) db.exec(sql);
  db.close();
  return Deno.readFileSync(path);
}

async function restoreWith(
  sql: string,
  version = newestSchemaVersion,
): Promise<{ error?: unknown; dataDir: string }> {
  const home = Deno.makeTempDirSync({ prefix: "radar-restore-schema-" });
  const dataDir = join(home, "data");
  Deno.mkdirSync(dataDir);
  Deno.writeTextFileSync(join(dataDir, "radar.db"), "the current database");
  const archive = join(home, "archive.tar.gz");
  await craftArchive(archive, [
    { name: "radar-backup/radar.db", bytes: databaseBytes(home, sql, version) },
    {
      name: "radar-backup/manifest.json",
      manifestFor: {
        format: "radar-backup",
        formatVersion: 1,
        radarVersion: "0.1.0",
        createdAt: now.toISOString(),
        schemaVersion: version,
        enabledPlugins: [],
        secretsLeftOut: [],
        secretsReferenced: [],
      },
    },
  ]);
  try {
    await restoreBackup({
      archive,
      dataDir,
      configTarget: join(home, "radar.yaml"),
      replaceConfig: false,
      newestSchemaVersion,
      now,
    });
    return { dataDir };
  } catch (error) {
    return { error, dataDir };
  }
}

Deno.test("restore refuses every schema object Radar does not create, in one line", async () => {
  const hostile: Array<[string, RegExp]> = [
    [
      `CREATE TRIGGER own_tasks AFTER INSERT ON tasks BEGIN
         UPDATE tasks SET name = NEW.name WHERE id = NEW.id; END`,
      /a trigger "own_tasks" on tasks that Radar does not create/,
    ],
    ["CREATE VIEW everything AS SELECT * FROM facts", /a view "everything" that Radar does not/],
    ["CREATE TABLE extra (x)", /a table "extra" that Radar does not create/],
    ["CREATE INDEX facts_extra ON facts(content)", /an? index "facts_extra" on facts that Radar/],
    ["ALTER TABLE facts ADD COLUMN sneaky TEXT", /a table "facts" that differs from the one/],
    ["ANALYZE", /a table "sqlite_stat1" that Radar does not create/],
  ];
  for (const [sql, expected] of hostile) {
    const { error, dataDir } = await restoreWith(sql);
    try {
      assert.ok(error instanceof RadarError, `${sql}: refused, got ${error}`);
      assert.equal(error.message.split("\n").length, 1, "one line");
      assert.match(error.message, /^Cannot restore from .*archive\.tar\.gz: its database has /);
      assert.match(error.message, expected);
      assert.equal(Deno.readTextFileSync(join(dataDir, "radar.db")), "the current database");
      assert.deepEqual([...Deno.readDirSync(dataDir)].map((entry) => entry.name), ["radar.db"]);
    } finally {
      Deno.removeSync(join(dataDir, ".."), { recursive: true });
    }
  }
});

Deno.test("restore accepts Radar's own schema of its version, and refuses one with an index removed", async () => {
  for (const version of [newestSchemaVersion, 30]) {
    const own = await restoreWith("", version);
    try {
      assert.equal(own.error, undefined, `schema ${version}: ${own.error}`);
      assert.notEqual(Deno.readTextFileSync(join(own.dataDir, "radar.db")), "the current database");
    } finally {
      Deno.removeSync(join(own.dataDir, ".."), { recursive: true });
    }
  }
  const path = Deno.makeTempFileSync({ suffix: ".db" });
  openDatabase(path).close();
  const made = new DatabaseSync(path);
  const { name } = made.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL LIMIT 1",
  ).get() as { name: string };
  made.close();
  Deno.removeSync(path);
  const missing = await restoreWith(`DROP INDEX "${name}"`);
  try {
    assert.ok(missing.error instanceof RadarError);
    assert.match(missing.error.message, new RegExp(`no index "${name}", which Radar creates`));
  } finally {
    Deno.removeSync(join(missing.dataDir, ".."), { recursive: true });
  }
});
