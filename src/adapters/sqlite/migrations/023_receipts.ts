/** Schema 23: delivery receipts of notifications and task firings. */
import type { Migration } from "../database.ts";

/**
 * `notification_receipts`: each push notification (its exact request body, to retry it), its
 * state, attempts, last HTTP status or error, and the next try. `task_firings`: each time a task
 * was due: ran, failed, missed during downtime, caught up late, retried after a crash.
 */
export const receiptsMigration: Migration = {
  version: 23,
  name: "023_receipts",
  sql: `
CREATE TABLE notification_receipts (
  id INTEGER PRIMARY KEY,
  key TEXT,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  task_id INTEGER,
  approval_id INTEGER,
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('fired', 'delivered', 'retrying', 'undeliverable')),
  attempts INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER,
  last_error TEXT,
  fired_at TEXT NOT NULL,
  delivered_at TEXT,
  next_attempt_at TEXT
);
CREATE INDEX notification_receipts_fired ON notification_receipts(fired_at);
CREATE INDEX notification_receipts_retry ON notification_receipts(next_attempt_at)
  WHERE state = 'retrying';
CREATE INDEX notification_receipts_conversation ON notification_receipts(conversation_id);
CREATE TABLE task_firings (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  due_at TEXT NOT NULL,
  fired_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('fired', 'ran', 'failed', 'missed', 'busy')),
  caught_up INTEGER NOT NULL DEFAULT 0,
  retried INTEGER NOT NULL DEFAULT 0,
  run_id INTEGER,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  note TEXT
);
CREATE INDEX task_firings_task ON task_firings(task_id, fired_at);
`,
};
