/** The outbox records what a side effect sent and how it ended; a failed key may be retried. */
import assert from "node:assert/strict";
import { migrate, openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteOutbox } from "../../../src/adapters/sqlite/outbox_store.ts";
import { migrations } from "../../../src/adapters/sqlite/migrations/index.ts";
import { DatabaseSync } from "node:sqlite";
import { Secrets } from "../../../src/core/secrets.ts";

const at = new Date("2026-11-23T10:00:00Z");
const later = new Date("2026-11-23T10:00:05Z");

Deno.test("outbox: claimed, failed with its answer, claimed again by a retry, then sent once", () => {
  const db = openDatabase(":memory:");
  try {
    const outbox = new SqliteOutbox(db, new Secrets(["tk_secret"]));
    const notification = {
      key: "check:backup:failing-after:first-run:notify#1",
      kind: "notify",
      summary: "Check backup is failing: exit code 3",
      at,
      pid: 7,
      topic: "radar",
      title: "Check backup is failing",
      body: "exit code 3",
      priority: "high",
    };
    assert.equal(outbox.claim(notification), undefined, "claimed now");
    assert.equal(outbox.claim(notification)?.state, "claimed", "a second claim finds it");
    outbox.markFailed(notification.key, later, {
      status: 401,
      error: "ntfy refused the notification: 401 (token tk_secret)",
    });
    let entry = outbox.get(notification.key)!;
    assert.equal(entry.state, "failed");
    assert.equal(entry.status, 401);
    assert.equal(entry.error, "ntfy refused the notification: 401 (token ********)");
    assert.equal(entry.finishedAt, later.toISOString());
    assert.equal(outbox.claim(notification), undefined, "a failed key is claimed again");
    outbox.markSent(notification.key, later, { status: 200 });
    entry = outbox.get(notification.key)!;
    assert.deepEqual(
      [entry.state, entry.attempts, entry.status, entry.error, entry.sentAt],
      ["sent", 2, 200, undefined, later.toISOString()],
    );
    assert.deepEqual(
      [entry.topic, entry.title, entry.body, entry.priority],
      ["radar", "Check backup is failing", "exit code 3", "high"],
    );
    assert.equal(outbox.claim(notification)?.state, "sent", "never sent twice");
    outbox.markFailed(notification.key, later, { error: "late failure" });
    assert.equal(outbox.get(notification.key)?.state, "sent", "a sent entry stays sent");
    assert.deepEqual(outbox.recent(5, "notify").map((row) => row.key), [notification.key]);
    assert.deepEqual(outbox.recent(5, "other"), []);
  } finally {
    db.close();
  }
});

Deno.test("outbox: schema 33 keeps the rows of before as sent or claimed", () => {
  const db = new DatabaseSync(":memory:");
  try {
    migrate(db, migrations.filter((step) => step.version < 33));
    db.exec(
      `INSERT INTO outbox (key, kind, summary, created_at, sent_at, pid) VALUES
       ('a', 'notify', 'sent before', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:01.000Z', 1),
       ('b', 'notify', 'cut short', '2026-11-23T09:30:00.000Z', NULL, 1)`,
    );
    migrate(db, migrations);
    const outbox = new SqliteOutbox(db);
    assert.deepEqual(
      outbox.recent(5).map((entry) => [entry.key, entry.state, entry.attempts, entry.body]),
      [["b", "claimed", 1, undefined], ["a", "sent", 1, undefined]],
    );
  } finally {
    db.close();
  }
});
