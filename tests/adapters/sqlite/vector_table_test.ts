/**
 * The one vectors adapter behind fact, summary and digest vectors, on a real SQLite file with a
 * small items table of its own: stale versions, models kept apart, the pending list, deletion,
 * and a write on a full disk (a real tmpfs when root, else a read-only file) failing with one line.
 */
import assert from "node:assert/strict";
import type { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import {
  SqliteVectorTable,
  type VectorTableConfig,
} from "../../../src/adapters/sqlite/vector_table.ts";
import { StorageError } from "../../../src/adapters/sqlite/write.ts";
import { fillDisk, mountTmpfs, tmpfsMounts } from "./tmpfs.ts";
import { needing, normalUser } from "../../helpers/system_parts.ts";

interface NoteRow {
  id: number;
  body: string;
  changed_at: string;
}

const schema = `
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, changed_at TEXT NOT NULL);
CREATE TABLE note_vectors (
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  note_changed_at TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (note_id, model)
) WITHOUT ROWID;`;

/** The test's vectors, with the protected item check open. */
class NoteVectors extends SqliteVectorTable<NoteRow, string> {
  empty(): boolean {
    return this.noItems();
  }
}

const noteConfig: VectorTableConfig<NoteRow, string> = {
  table: "note_vectors",
  itemColumn: "note_id",
  versionColumn: "note_changed_at",
  items: "notes",
  idColumn: "id",
  itemVersionColumn: "changed_at",
  what: "the note's vector",
  text: (row) => `note: ${row.body}`,
  toItem: (row) => row.body,
};

function noteVectors(db: DatabaseSync) {
  return new NoteVectors(db, noteConfig);
}

function withDatabase(run: (db: DatabaseSync) => void, folder?: string): void {
  const dir = folder ?? Deno.makeTempDirSync();
  const db = openDatabase(join(dir, "radar.db"));
  try {
    db.exec(schema);
    run(db);
  } finally {
    db.close();
    if (!folder) Deno.removeSync(dir, { recursive: true });
  }
}

function addNote(db: DatabaseSync, id: number, body: string, changedAt: string): void {
  db.prepare("INSERT INTO notes (id, body, changed_at) VALUES (?, ?, ?)").run(id, body, changedAt);
}

function vectorCount(db: DatabaseSync): number {
  return Number((db.prepare("SELECT COUNT(*) AS n FROM note_vectors").get() as { n: number }).n);
}

Deno.test("a vector of an older version of the item is never found and the item is pending", () => {
  withDatabase((db) => {
    const vectors = noteVectors(db);
    addNote(db, 1, "apples", "v1");
    vectors.put(1, "m", "v1", [1, 0]);
    assert.deepEqual(vectors.nearest("m", [1, 0], 5), [{ item: "apples", similarity: 1 }]);
    assert.deepEqual(vectors.pending("m", 5), []);

    db.prepare("UPDATE notes SET body = 'pears', changed_at = 'v2' WHERE id = 1").run();
    assert.deepEqual(vectors.nearest("m", [1, 0], 5), []);
    assert.deepEqual(vectors.pending("m", 5), [{ id: 1, text: "note: pears", version: "v2" }]);
    // A late write of the old version stays stale.
    vectors.put(1, "m", "v1", [1, 0]);
    assert.deepEqual(vectors.nearest("m", [1, 0], 5), []);
    vectors.put(1, "m", "v2", [0, 1]);
    assert.deepEqual(vectors.nearest("m", [0, 1], 5), [{ item: "pears", similarity: 1 }]);
  });
});

Deno.test("two models' vectors never mix", () => {
  withDatabase((db) => {
    const vectors = noteVectors(db);
    addNote(db, 1, "apples", "v1");
    addNote(db, 2, "pears", "v1");
    vectors.put(1, "small", "v1", [1, 0]);
    vectors.put(1, "large", "v1", [0, 1, 0]);
    vectors.put(2, "large", "v1", [0, 0, 1]);

    assert.deepEqual(vectors.nearest("small", [1, 0], 5), [{ item: "apples", similarity: 1 }]);
    assert.deepEqual(vectors.nearest("large", [0, 1, 0], 5), [
      { item: "apples", similarity: 1 },
      { item: "pears", similarity: 0 },
    ]);
    assert.deepEqual(vectors.nearest("other", [1, 0], 5), []);
    assert.deepEqual(vectors.pending("small", 5), [{ id: 2, text: "note: pears", version: "v1" }]);
    assert.deepEqual(vectors.pending("large", 5), []);
  });
});

Deno.test("pending lists items without a vector, lowest id first, up to the limit", () => {
  withDatabase((db) => {
    const vectors = noteVectors(db);
    assert.equal(vectors.empty(), true);
    for (const id of [3, 1, 4, 2]) addNote(db, id, `note ${id}`, `v${id}`);
    assert.equal(vectors.empty(), false);
    vectors.put(2, "m", "v2", [1, 1]);
    assert.deepEqual(vectors.pending("m", 2), [
      { id: 1, text: "note: note 1", version: "v1" },
      { id: 3, text: "note: note 3", version: "v3" },
    ]);
    assert.equal(vectors.pending("m", 10).length, 3);
    // A damaged blob is skipped, not a crash.
    db.prepare("UPDATE note_vectors SET vector = X'010203' WHERE note_id = 2").run();
    assert.deepEqual(vectors.nearest("m", [1, 1], 5), []);
  });
});

Deno.test("deleting an item deletes its vectors; a vector for a gone item is not stored", () => {
  withDatabase((db) => {
    const vectors = noteVectors(db);
    addNote(db, 1, "apples", "v1");
    addNote(db, 2, "pears", "v1");
    vectors.put(1, "a", "v1", [1, 0]);
    vectors.put(1, "b", "v1", [1, 0]);
    vectors.put(2, "a", "v1", [0, 1]);
    assert.equal(vectorCount(db), 3);
    db.prepare("DELETE FROM notes WHERE id = 1").run();
    assert.equal(vectorCount(db), 1);
    assert.deepEqual(vectors.nearest("a", [1, 0], 5), [{ item: "pears", similarity: 0 }]);
    vectors.put(1, "a", "v1", [1, 0]);
    assert.equal(vectorCount(db), 1);
  });
});

Deno.test("table and column names must be plain SQL identifiers", () => {
  withDatabase((db) => {
    assert.throws(
      () => new SqliteVectorTable(db, { ...noteConfig, table: "note_vectors; DROP TABLE notes" }),
      /not an SQL identifier/,
    );
  });
});

/** Puts big vectors until one fails; returns the error (undefined when all were stored). */
function firstFailedPut(db: DatabaseSync): unknown {
  const vectors = noteVectors(db);
  const big = Array.from({ length: 8192 }, (_, index) => index);
  for (let id = 1; id <= 50; id++) {
    try {
      vectors.put(id, "m", "v1", big);
    } catch (error) {
      return error;
    }
  }
  return undefined;
}

function assertOneLine(failure: unknown, kind: string, path: string): void {
  assert.ok(failure instanceof StorageError, `no StorageError: ${failure}`);
  assert.equal(failure.failure, kind);
  assert.match(failure.message, /^Cannot save the note's vector: /);
  assert.ok(failure.message.includes(path), failure.message);
  assert.ok(!failure.message.includes("\n"), failure.message);
}

function addNotes(db: DatabaseSync): void {
  db.exec("BEGIN");
  for (let id = 1; id <= 50; id++) addNote(db, id, `note ${id}`, "v1");
  db.exec("COMMIT");
}

Deno.test(needing([tmpfsMounts], {
  name: "a vector write on a full disk throws one StorageError line naming the file (tmpfs)",
  fn() {
    const disk = mountTmpfs(2048);
    try {
      withDatabase((db) => {
        addNotes(db);
        fillDisk(disk.path);
        assertOneLine(firstFailedPut(db), "disk_full", join(disk.path, "radar.db"));
      }, disk.path);
    } finally {
      disk.unmount();
    }
  },
}));

Deno.test(needing([normalUser(import.meta.url)], {
  name: "a vector write to a read-only database file throws one StorageError line",
  // Permissions make the file read-only — which root ignores (the tmpfs test covers root).
  fn() {
    const folder = Deno.makeTempDirSync();
    const path = join(folder, "radar.db");
    try {
      withDatabase(addNotes, folder);
      Deno.chmodSync(path, 0o444);
      Deno.chmodSync(folder, 0o555);
      const db = openDatabase(path);
      try {
        assertOneLine(firstFailedPut(db), "read_only", path);
      } finally {
        db.close();
      }
    } finally {
      Deno.chmodSync(folder, 0o755);
      Deno.removeSync(folder, { recursive: true });
    }
  },
}));
