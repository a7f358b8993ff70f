/** Schema 23: task firings (delivery receipts of scheduled tasks). */
import type { Migration } from "../database.ts";

/** `task_firings`: each time a task was due: ran, failed, missed during downtime, caught up late. */
export const receiptsMigration: Migration = {
  version: 23,
  name: "023_receipts",
  sql: `
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
