import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { migrate, openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../../src/adapters/sqlite/conversation_store.ts";
import { SqliteFactStore, toFtsQuery } from "../../../src/adapters/sqlite/fact_store.ts";
import { RadarError } from "../../../src/core/errors.ts";

const at = new Date("2026-11-22T10:00:00Z");

Deno.test("openDatabase() uses WAL, foreign keys and a busy timeout, and migrates once", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "radar.db");
    const db = openDatabase(path);
    assert.equal(
      (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode,
      "wal",
    );
    assert.equal(
      (db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys,
      1,
    );
    assert.equal((db.prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout, 5000);
    const version =
      (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    assert.ok(version >= 1);
    db.close();
    const again = openDatabase(path);
    assert.equal(
      (again.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      version,
    );
    again.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("migrate() refuses a database newer than this Radar and rolls back a failing step", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA user_version = 99");
  assert.throws(() => migrate(db, [{ version: 1, name: "x", sql: "" }]), RadarError);
  db.exec("PRAGMA user_version = 0");
  assert.throws(
    () =>
      migrate(db, [{ version: 1, name: "bad", sql: "CREATE TABLE t (a); SELECT nope FROM t;" }]),
    /Cannot migrate database to bad/,
  );
  assert.equal(db.prepare("SELECT name FROM sqlite_master WHERE name = 't'").get(), undefined);
  db.close();
});

Deno.test("SqliteConversationStore stores every message field and survives reopening", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "radar.db");
    let db = openDatabase(path);
    let store = new SqliteConversationStore(db);
    const id = store.createConversation("ask", "List PDFs", at);
    store.appendMessage(id, { role: "user", content: "List PDFs", createdAt: at });
    store.appendMessage(id, {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "list_directory", arguments: '{"path":"~/Downloads"}' }],
      usage: { promptTokens: 300, completionTokens: 20 },
      durationMs: 1234.4,
      createdAt: at,
    });
    store.appendMessage(id, {
      role: "tool",
      content: "a.pdf",
      toolCallId: "c1",
      toolName: "list_directory",
      createdAt: at,
    });
    db.close();
    db = openDatabase(path);
    store = new SqliteConversationStore(db);
    const messages = store.messages(id);
    assert.equal(messages.length, 3);
    assert.deepEqual(messages[1].toolCalls, [
      { id: "c1", name: "list_directory", arguments: '{"path":"~/Downloads"}' },
    ]);
    assert.deepEqual(messages[1].usage, { promptTokens: 300, completionTokens: 20 });
    assert.equal(messages[1].durationMs, 1234);
    assert.equal(messages[2].toolName, "list_directory");
    assert.deepEqual(store.recentMessages(id, 2).map((m) => m.role), ["assistant", "tool"]);
    assert.equal(store.conversation(id)?.messageCount, 3);
    db.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteConversationStore lists by kind and search, paginates and deletes", () => {
  const db = openDatabase(":memory:");
  const store = new SqliteConversationStore(db);
  for (let index = 0; index < 5; index++) {
    const id = store.createConversation(
      index % 2 ? "chat" : "heartbeat",
      `t${index}`,
      new Date(at.getTime() + index),
    );
    store.appendMessage(id, {
      role: "user",
      content: index === 3 ? "find 100%_this" : "x",
      createdAt: new Date(at.getTime() + index),
    });
  }
  assert.deepEqual(store.list({ limit: 10, kind: "chat" }).map((c) => c.title), ["t3", "t1"]);
  assert.deepEqual(store.list({ limit: 10, search: "100%_" }).map((c) => c.title), ["t3"]);
  assert.deepEqual(store.list({ limit: 2, offset: 2 }).map((c) => c.title), ["t2", "t1"]);
  assert.equal(store.count(), 5);
  assert.equal(store.latest("heartbeat")?.title, "t4");
  assert.equal(store.delete(store.latest("heartbeat")!.id), true);
  assert.equal(store.count("heartbeat"), 2);
  assert.equal(db.prepare("SELECT COUNT(*) AS n FROM messages").get()!.n, 4, "messages cascade");
  db.close();
});

Deno.test("SqliteFactStore searches with FTS5 ranking and survives hostile queries", () => {
  const db = openDatabase(":memory:");
  const facts = new SqliteFactStore(db);
  facts.addFact({ category: "user_preference", content: "Favorite color is green" }, at);
  facts.addFact({ category: "learned_fact", content: "The cat is called Pixel" }, at);
  const note = facts.addFact(
    { category: "personality_note", content: "Prefers brief answers" },
    at,
  );
  assert.deepEqual(facts.searchFacts("favorite colours", 5).map((f) => f.content), [
    "Favorite color is green",
  ]);
  for (const hostile of ['"', "AND OR NOT", "col:x", "*", "a) OR (b", "NEAR(", "😀", ""]) {
    assert.doesNotThrow(() => facts.searchFacts(hostile, 5), `query ${hostile}`);
  }
  assert.deepEqual(facts.searchFacts("pixel", 5, "user_preference"), []);
  assert.equal(facts.listFacts({ limit: 5, category: "personality_note" })[0].id, note);
  assert.equal(facts.updateFact(note, "Prefers long answers", at), true);
  assert.deepEqual(facts.searchFacts("brief", 5), [], "FTS follows updates");
  assert.equal(facts.searchFacts("long", 5)[0].id, note);
  assert.equal(facts.forgetFact(note), true);
  assert.deepEqual(facts.searchFacts("long", 5), [], "FTS follows deletes");
  assert.equal(facts.countFacts(), 2);
  db.close();
});

Deno.test("toFtsQuery() quotes each word as a prefix term", () => {
  assert.equal(toFtsQuery('Color: "green" OR'), '"color"* OR "green"* OR "or"*');
  assert.equal(toFtsQuery("!!!"), undefined);
});
