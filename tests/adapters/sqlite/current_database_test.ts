/**
 * The runtime opens its database without the migrations when the file is current
 * (`openCurrentDatabase`): the schema version it compares with is a constant, which must be the
 * newest migration's; a new or older file is migrated as `openDatabase` does.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import {
  migrate,
  newestSchemaVersion,
  openCurrentDatabase,
  userVersion,
} from "../../../src/adapters/sqlite/database_file.ts";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";

/** The schema objects of a database, as SQLite stores their definitions. */
function schemaOf(db: DatabaseSync): string[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name").all())
    .map((row) => JSON.stringify(row));
}

Deno.test("newestSchemaVersion is the newest migration's version (raise it with each new one)", () => {
  assert.equal(newestSchemaVersion, Math.max(...migrations.map((step) => step.version)));
});

Deno.test("openCurrentDatabase migrates a new or older file like openDatabase, and opens a current one", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-current-db-" });
  try {
    const fresh = await openCurrentDatabase(join(dir, "new.db"));
    const reference = openDatabase(join(dir, "reference.db"));
    assert.equal(userVersion(fresh), newestSchemaVersion);
    assert.deepEqual(schemaOf(fresh), schemaOf(reference));
    fresh.close();

    const older = new DatabaseSync(join(dir, "older.db"));
    migrate(older, migrations.filter((step) => step.version <= 30));
    older.close();
    const upgraded = await openCurrentDatabase(join(dir, "older.db"));
    assert.equal(userVersion(upgraded), newestSchemaVersion);
    assert.deepEqual(schemaOf(upgraded), schemaOf(reference));
    upgraded.close();

    const current = await openCurrentDatabase(join(dir, "new.db"));
    assert.deepEqual(schemaOf(current), schemaOf(reference));
    current.close();
    reference.close();

    const newer = new DatabaseSync(join(dir, "newer.db"));
    newer.exec(`PRAGMA user_version = ${newestSchemaVersion + 1}`);
    newer.close();
    await assert.rejects(
      () => openCurrentDatabase(join(dir, "newer.db")),
      /newer than this Radar \(\d+\)\. Upgrade Radar\./,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
