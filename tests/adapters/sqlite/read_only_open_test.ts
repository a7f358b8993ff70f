/**
 * A database in a read-only folder is opened for reading without losing committed changes still
 * in a leftover -wal file (a crash or a running daemon leaves one), and without reading the
 * whole file into memory. Uses a real read-only tmpfs (root).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { readOnlyReason } from "../../../src/adapters/sqlite/storage_failure.ts";
import { SqliteFactStore } from "../../../src/adapters/sqlite/fact_store.ts";
import { mountTmpfs, tmpfsMounts } from "./tmpfs.ts";
import { needing } from "../../helpers/system_parts.ts";

/**
 * A database with two facts whose second commit is only in the -wal file, copied (with the
 * files named in `companions`) into a tmpfs that is then remounted read-only.
 */
const at = new Date("2026-11-23T09:00:00Z");
const add = (facts: SqliteFactStore, content: string) =>
  facts.addFact({ category: "learned_fact", content }, at);
const contents = (facts: SqliteFactStore) =>
  facts.listFacts({ limit: 10 }).map((fact) => fact.content);

function readOnlyCopyWithWal(companions: string[]) {
  const source = Deno.makeTempDirSync({ prefix: "radar-wal-source-" });
  const db = openDatabase(join(source, "radar.db"));
  const facts = new SqliteFactStore(db);
  add(facts, "first fact, checkpointed");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  add(facts, "second fact, only in the -wal file");
  const tmpfs = mountTmpfs(4096);
  for (const name of ["radar.db", ...companions]) {
    Deno.copyFileSync(join(source, name), join(tmpfs.path, name));
  }
  db.close();
  Deno.removeSync(source, { recursive: true });
  tmpfs.makeReadOnly();
  return tmpfs;
}

for (const companions of [["radar.db-wal", "radar.db-shm"], ["radar.db-wal"]]) {
  Deno.test(needing([tmpfsMounts], {
    name: `a read-only folder with ${companions.join(" and ")} shows the changes in the -wal`,
    fn() {
      const tmpfs = readOnlyCopyWithWal(companions);
      try {
        const db = openDatabase(join(tmpfs.path, "radar.db"));
        try {
          // With both files SQLite opens the file itself, read-only; without -shm Radar opens a
          // snapshot. Either way the reason is known (status shows it, audits are skipped).
          assert.match(readOnlyReason(db) ?? "", /read-only/);
          const texts = contents(new SqliteFactStore(db));
          assert.ok(texts.includes("second fact, only in the -wal file"), texts.join(", "));
          assert.ok(texts.includes("first fact, checkpointed"));
          assert.throws(() => add(new SqliteFactStore(db), "no"), /read-only|readonly/i);
        } finally {
          db.close();
        }
      } finally {
        tmpfs.unmount();
      }
    },
  }));
}

Deno.test(needing([tmpfsMounts], {
  name: "a read-only folder without a -wal opens a file, not a copy in memory",
  fn() {
    const tmpfs = mountTmpfs(4096);
    try {
      const path = join(tmpfs.path, "radar.db");
      const writer = openDatabase(path);
      add(new SqliteFactStore(writer), "kept");
      writer.close(); // checkpoints and removes the -wal and -shm files
      tmpfs.makeReadOnly();
      const db = openDatabase(path);
      try {
        assert.deepEqual(contents(new SqliteFactStore(db)), ["kept"]);
        const file = (db.prepare("PRAGMA database_list").all() as Array<{ file: string }>)[0].file;
        assert.ok(file.endsWith("radar.db"), `a file on disk, not an in-memory snapshot: ${file}`);
      } finally {
        db.close();
      }
    } finally {
      tmpfs.unmount();
    }
  },
}));

Deno.test("a damaged file still fails with the recovery line", () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-damaged-" });
  try {
    const path = join(dir, "radar.db");
    Deno.writeTextFileSync(path, "this is not a database ".repeat(100));
    assert.throws(
      () => openDatabase(path),
      /is damaged \(file is not a database\): run `radar db check`/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
