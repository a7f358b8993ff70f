/**
 * Schema 50 on a real SQLite file: `approvals.decided_via` names the chat channel that decided
 * (telegram, matrix, email) and refuses anything else; the table is rebuilt from its stored
 * definition, so its rows, a column another step added, its index, its UNIQUE key and its foreign
 * key to conversations all survive, and a migrated file has exactly the schema of a new one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { migrate, openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";
import { SqliteApprovalStore } from "../../../src/adapters/sqlite/approval_store.ts";
import type { PendingAction } from "../../../src/away/approval_ports.ts";

const at = new Date("2026-11-24T03:00:00Z");
const later = new Date("2026-11-25T03:00:00Z");

const action: PendingAction & { shownHash: string } = {
  tool: "write_file",
  arguments: '{"path":"~/notes/todo.txt","content":"call the bank"}',
  kind: "chat",
  reasons: ["it changes a file"],
  tainted: [],
  untrustedSources: [],
  privateSources: [],
  destinations: [],
  namedDestinations: [],
  shownHash: "0".repeat(64),
};

function withFile(work: (path: string) => void): void {
  const folder = Deno.makeTempDirSync({ prefix: "radar-decided-via-" });
  try {
    work(join(folder, "radar.db"));
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
}

function schemaOf(
  db: DatabaseSync,
  table: string,
): Array<{ type: string; name: string; sql: string }> {
  return db.prepare(
    "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY name",
  ).all(table) as Array<{ type: string; name: string; sql: string }>;
}

Deno.test("an approval is recorded as decided in the chat channel that answered it", () => {
  withFile((path) => {
    const db = openDatabase(path);
    try {
      const store = new SqliteApprovalStore(db);
      const ids = ["telegram", "matrix", "email"].map(() =>
        store.create(action, at, later).record.id
      );
      assert.equal(store.claim(ids[0], at, "telegram")?.decidedVia, "telegram");
      assert.equal(store.deny(ids[1], at, "matrix"), true);
      assert.equal(store.get(ids[1])?.decidedVia, "matrix");
      assert.equal(store.claim(ids[2], at, "email")?.decidedVia, "email");
      assert.throws(
        () => db.prepare("UPDATE approvals SET decided_via = 'sms' WHERE id = ?").run(ids[0]),
        /CHECK constraint failed/,
      );
    } finally {
      db.close();
    }
  });
});

Deno.test("schema 50 rebuilds approvals with its rows, added columns, index and keys", () => {
  withFile((path) => {
    const db = new DatabaseSync(path);
    try {
      db.exec("PRAGMA foreign_keys = ON");
      migrate(db, migrations.filter((step) => step.version < 50));
      // A column a step outside this list could add (042 and 048 add theirs before 50).
      db.exec("ALTER TABLE approvals ADD COLUMN extra_note TEXT");
      db.prepare(
        "INSERT INTO conversations (id, kind, title, created_at, updated_at) VALUES (7, 'chat', 't', ?, ?)",
      ).run(at.toISOString(), at.toISOString());
      const statement = db.prepare(
        `INSERT INTO approvals (key, state, tool, arguments, conversation_id, kind, reasons,
           tainted, untrusted_sources, created_at, expires_at, decided_at, decided_via, screenshot,
           shown_hash)
         VALUES (?, ?, 'write_file', '{}', ?, 'chat', '[]', '[]', '[]', ?, ?, ?, ?, ?, ?)`,
      );
      /** A pending row, or a decided one (decided now, by phone, with a screenshot and hash). */
      const insert = (key: string, conversation: number | null, decided = false) =>
        statement.run(
          key,
          decided ? "done" : "pending",
          conversation,
          at.toISOString(),
          later.toISOString(),
          ...(decided
            ? [at.toISOString(), "phone", new Uint8Array([1, 2, 3]), "abc"]
            : [null, null, null, null]),
        );
      insert("k1", 7, true);
      insert("k2", null);
      const before = db.prepare("SELECT * FROM approvals ORDER BY id").all();

      migrate(db, migrations);
      // Every row and column as it was (later steps may add columns of their own).
      const after = db.prepare("SELECT * FROM approvals ORDER BY id").all().map((row) =>
        Object.fromEntries(Object.keys(before[0]).map((name) => [name, row[name]]))
      );
      assert.deepEqual(after, before.map((row) => ({ ...row })));
      assert.deepEqual(
        schemaOf(db, "approvals").map((row) => `${row.type} ${row.name}`),
        ["table approvals", "index approvals_pending"],
      );
      assert.match(schemaOf(db, "approvals")[0].sql, /shown_hash TEXT/);
      assert.match(schemaOf(db, "approvals")[0].sql, /extra_note TEXT/);
      const store = new SqliteApprovalStore(db);
      assert.equal(store.claim(2, at, "matrix")?.decidedVia, "matrix");
      assert.throws(
        () => insert("k1", null),
        /UNIQUE constraint failed: approvals.key/,
      );
      assert.throws(
        () => insert("k3", 99),
        /FOREIGN KEY constraint failed/,
      );
      db.exec("DELETE FROM conversations WHERE id = 7");
      assert.equal(store.get(1)?.conversationId, undefined, "ON DELETE SET NULL kept");
      assert.deepEqual(db.prepare("PRAGMA foreign_key_check").all(), []);
      assert.equal(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
    } finally {
      db.close();
    }
  });
});

Deno.test("a database migrated to schema 50 has the approvals schema of a new one", () => {
  withFile((path) => {
    const old = new DatabaseSync(path);
    migrate(old, migrations.filter((step) => step.version < 50));
    old.close();
    const migrated = openDatabase(path);
    const fresh = openDatabase(":memory:");
    try {
      assert.deepEqual(schemaOf(migrated, "approvals"), schemaOf(fresh, "approvals"));
      assert.match(
        schemaOf(fresh, "approvals")[0].sql,
        /decided_via TEXT CHECK \(decided_via IN \('cli', 'dashboard', 'phone', 'telegram', 'matrix', 'email'\)\)/,
      );
      assert.match(
        schemaOf(fresh, "approvals")[0].sql,
        /conversation_id INTEGER REFERENCES conversations\(id\) ON DELETE SET NULL/,
      );
    } finally {
      migrated.close();
      fresh.close();
    }
  });
});
