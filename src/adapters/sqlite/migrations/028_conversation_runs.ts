/**
 * Schema 28: the runs in progress per conversation (ask, chat, dashboard chat, heartbeat, task),
 * so a run whose process was killed is found on the next start and shown as interrupted instead
 * of a question that looks unanswered forever.
 */
import type { Migration } from "../database.ts";

/** `conversation_runs`: running rows (deleted when the run ends) and interrupted ones. */
export const conversationRunsMigration: Migration = {
  version: 28,
  name: "028_conversation_runs",
  sql: `
CREATE TABLE conversation_runs (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  pid INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'interrupted')),
  last_message_id INTEGER,
  interrupted_at TEXT
);
CREATE INDEX conversation_runs_running ON conversation_runs(state) WHERE state = 'running';
CREATE INDEX conversation_runs_conversation ON conversation_runs(conversation_id, id);
`,
};
