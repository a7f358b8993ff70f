/** Schema 53: an assistant message keeps what its run had read; older ones count as private. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { migrate } from "../../../src/adapters/sqlite/database.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";
import { SqliteConversationStore } from "../../../src/adapters/sqlite/conversation_store.ts";

Deno.test("messages keep what their run had read, and older assistant messages count as private reads", () => {
  const db = new DatabaseSync(":memory:");
  try {
    migrate(db, migrations.filter((step) => step.version < 53));
    db.exec(
      `INSERT INTO conversations (id, kind, title, created_at, updated_at)
         VALUES (1, 'heartbeat', 'h', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z');
       INSERT INTO messages (conversation_id, role, content, created_at) VALUES
         (1, 'user', 'It is 09:00.', '2026-11-23T09:00:00.000Z'),
         (1, 'assistant', 'The note says 4711.', '2026-11-23T09:00:01.000Z')`,
    );
    migrate(db, migrations);
    const store = new SqliteConversationStore(db);
    const at = new Date("2026-11-23T09:15:00.000Z");
    store.appendMessage(1, {
      role: "assistant",
      content: "Fetched.",
      readFrom: { untrusted: ["tool fetch_url"], private: [] },
      createdAt: at,
    });
    store.appendMessage(1, { role: "assistant", content: "Stopped.", createdAt: at });
    const [user, before, labelled, ownWords] = store.recentMessages(1, 10);
    assert.equal(user.readFrom, undefined);
    assert.equal(before.readFrom?.private.length, 1, "nobody recorded what it had read");
    assert.deepEqual(labelled.readFrom, { untrusted: ["tool fetch_url"], private: [] });
    assert.equal(ownWords.readFrom, undefined, "Radar's own words read nothing");
    db.exec("UPDATE messages SET read_from = 'not json' WHERE content = 'Fetched.'");
    assert.equal(store.recentMessages(1, 10)[2].readFrom?.private.length, 1, "unreadable: private");
  } finally {
    db.close();
  }
});
