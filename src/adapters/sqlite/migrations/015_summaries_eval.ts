/**
 * Schema 15: conversation summaries in semantic memory (full-text indexed, with vectors like
 * facts) and `radar eval` runs with their per-task results.
 */
import type { Migration } from "../database.ts";

/** Summaries of quiet conversations (one per conversation, replaced when it grows) and eval runs. */
export const summariesEvalMigration: Migration = {
  version: 15,
  name: "015_summaries_eval",
  sql: `
CREATE TABLE conversation_summaries (
  conversation_id INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  last_message_id INTEGER NOT NULL,
  message_count INTEGER NOT NULL,
  conversation_at TEXT NOT NULL,
  summarized_at TEXT NOT NULL
);
CREATE VIRTUAL TABLE conversation_summaries_fts USING fts5(title, content,
  content='conversation_summaries', content_rowid='conversation_id', tokenize='porter unicode61');
CREATE TRIGGER conversation_summaries_after_insert AFTER INSERT ON conversation_summaries BEGIN
  INSERT INTO conversation_summaries_fts(rowid, title, content)
    VALUES (new.conversation_id, new.title, new.content);
END;
CREATE TRIGGER conversation_summaries_after_delete AFTER DELETE ON conversation_summaries BEGIN
  INSERT INTO conversation_summaries_fts(conversation_summaries_fts, rowid, title, content)
    VALUES ('delete', old.conversation_id, old.title, old.content);
END;
CREATE TRIGGER conversation_summaries_after_update AFTER UPDATE ON conversation_summaries BEGIN
  INSERT INTO conversation_summaries_fts(conversation_summaries_fts, rowid, title, content)
    VALUES ('delete', old.conversation_id, old.title, old.content);
  INSERT INTO conversation_summaries_fts(rowid, title, content)
    VALUES (new.conversation_id, new.title, new.content);
END;
CREATE TABLE summary_embeddings (
  conversation_id INTEGER NOT NULL
    REFERENCES conversation_summaries(conversation_id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  summarized_at TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (conversation_id, model)
) WITHOUT ROWID;

CREATE TABLE eval_runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  model TEXT NOT NULL,
  server TEXT NOT NULL,
  tasks INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  tools_right INTEGER NOT NULL,
  tool_responses INTEGER NOT NULL,
  leaked_responses INTEGER NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  median_latency_ms INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL
);
CREATE TABLE eval_task_results (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  pass INTEGER NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  tool_calls TEXT NOT NULL DEFAULT '[]',
  tools_right INTEGER NOT NULL,
  tool_responses INTEGER NOT NULL,
  leaked_responses INTEGER NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL,
  PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
`,
};
