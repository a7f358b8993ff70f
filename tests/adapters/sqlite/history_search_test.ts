/**
 * History search goes through FTS5 indexes (message content and titles) with bounded pages, so
 * one search cannot stall the daemon's thread with a LIKE over every message.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { migrate, openDatabase } from "../../../src/adapters/sqlite/database.ts";
import {
  SqliteConversationStore,
  toFtsAllWordsQuery,
} from "../../../src/adapters/sqlite/conversation_store.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";
import { maxListOffset } from "../../../src/core/bounds.ts";

const at = new Date("2026-11-23T10:00:00Z");

function withStore(work: (store: SqliteConversationStore, db: DatabaseSync) => void): void {
  const dir = Deno.makeTempDirSync();
  const db = openDatabase(join(dir, "radar.db"));
  try {
    work(new SqliteConversationStore(db), db);
  } finally {
    db.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("history search finds every word in a message or the title, stemmed", () => {
  withStore((store) => {
    const invoice = store.createConversation("chat", "Invoices for March", at);
    store.appendMessage(invoice, {
      role: "user",
      content: "Where is the dentist bill?",
      createdAt: at,
    });
    const garden = store.createConversation("ask", "", at);
    store.appendMessage(garden, {
      role: "assistant",
      content: "Water the gardens on Tuesday",
      createdAt: at,
    });
    const ids = (search: string) => store.list({ search, limit: 10 }).map((row) => row.id);
    assert.deepEqual(ids("invoice"), [invoice]);
    assert.deepEqual(ids("DENTIST bill"), [invoice]);
    assert.deepEqual(ids("garden tuesday"), [garden]);
    assert.deepEqual(ids("garden dentist"), []);
    assert.deepEqual(ids("%_'\"*"), []);
    assert.deepEqual(store.list({ search: "garden", kind: "chat", limit: 10 }), []);
    assert.equal(store.list({ search: "garden", kind: "ask", limit: 10 })[0].messageCount, 1);
  });
});

Deno.test("search reads the FTS indexes, never scans the messages table", () => {
  withStore((store, db) => {
    const plan = (db.prepare(
      `EXPLAIN QUERY PLAN SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
       ORDER BY rowid DESC LIMIT 10`,
    ).all(toFtsAllWordsQuery("invoice")!) as Array<{ detail: string }>).map((row) => row.detail);
    assert.ok(plan.some((line) => line.includes("VIRTUAL TABLE")), plan.join("\n"));
    // A search's cost is bounded: a word in every message still answers one page quickly.
    db.exec("BEGIN");
    for (let index = 0; index < 3000; index++) {
      const id = store.createConversation("heartbeat", `beat ${index}`, at);
      store.appendMessage(id, { role: "assistant", content: "nothing new", createdAt: at });
    }
    db.exec("COMMIT");
    const rows = store.list({ search: "nothing", limit: 25 });
    assert.equal(rows.length, 25);
  });
});

Deno.test("counts come from counters kept by triggers; pages are clamped", () => {
  withStore((store) => {
    const a = store.createConversation("chat", "a", at);
    store.createConversation("chat", "b", at);
    store.createConversation("task", "c", at);
    assert.equal(store.count(), 3);
    assert.equal(store.count("chat"), 2);
    store.delete(a);
    assert.equal(store.count("chat"), 1);
    assert.equal(store.count("ask"), 0);
    assert.deepEqual(store.list({ limit: 10, offset: 10 * maxListOffset }), []);
    assert.equal(store.list({ limit: 1e9 }).length, 2);
  });
});

Deno.test("migration 007 indexes the messages and titles already stored", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "radar.db");
    const old = new DatabaseSync(path);
    migrate(old, migrations.filter((step) => step.version < 7));
    old.exec(
      `INSERT INTO conversations (id, kind, title, created_at, updated_at)
       VALUES (1, 'chat', 'Passport renewal', 'x', 'x'), (2, 'ask', '', 'x', 'x');
       INSERT INTO messages (conversation_id, role, content, created_at)
       VALUES (2, 'user', 'book the concert tickets', 'x');`,
    );
    old.close();
    const db = openDatabase(path);
    const store = new SqliteConversationStore(db);
    assert.deepEqual(store.list({ search: "passport", limit: 5 }).map((row) => row.id), [1]);
    assert.deepEqual(store.list({ search: "concert", limit: 5 }).map((row) => row.id), [2]);
    assert.equal(store.count(), 2);
    db.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
