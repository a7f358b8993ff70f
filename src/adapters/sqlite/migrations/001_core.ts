/** Schema 1: conversations, messages and facts with an FTS5 index kept in sync by triggers. */
import type { Migration } from "../database.ts";

/** Core memory tables. */
export const coreMigration: Migration = {
  version: 1,
  name: "001_core",
  sql: `
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('chat', 'ask', 'heartbeat', 'task')),
  title TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX conversations_kind_updated ON conversations(kind, updated_at);
CREATE INDEX conversations_updated ON conversations(updated_at);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content TEXT NOT NULL DEFAULT '',
  tool_calls TEXT,
  tool_call_id TEXT,
  tool_name TEXT,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  duration_ms INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);

CREATE TABLE facts (
  id INTEGER PRIMARY KEY,
  category TEXT NOT NULL CHECK (category IN ('user_preference', 'learned_fact', 'task_state', 'personality_note')),
  content TEXT NOT NULL,
  source_conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX facts_category_created ON facts(category, created_at);

CREATE VIRTUAL TABLE facts_fts USING fts5(content, content='facts', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER facts_after_insert AFTER INSERT ON facts BEGIN
  INSERT INTO facts_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER facts_after_delete AFTER DELETE ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER facts_after_update AFTER UPDATE OF content ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO facts_fts(rowid, content) VALUES (new.id, new.content);
END;
`,
};
