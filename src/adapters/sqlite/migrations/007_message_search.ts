/**
 * Schema 7: history search through FTS5 indexes (message content and conversation titles) kept in
 * sync by triggers, instead of an unindexed LIKE over every message; and per-kind conversation
 * counts kept by triggers so a history page never counts 100,000 rows.
 */
import type { Migration } from "../database.ts";

/** Message and title search indexes, and the conversation counters. */
export const messageSearchMigration: Migration = {
  version: 7,
  name: "007_message_search",
  sql: `
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF content ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');

CREATE VIRTUAL TABLE conversations_fts USING fts5(title, content='conversations',
  content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER conversations_fts_after_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER conversations_fts_after_delete AFTER DELETE ON conversations BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
CREATE TRIGGER conversations_fts_after_update AFTER UPDATE OF title ON conversations BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
  INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
INSERT INTO conversations_fts(conversations_fts) VALUES ('rebuild');

CREATE TABLE conversation_counts (
  kind TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);
INSERT INTO conversation_counts (kind, n) SELECT kind, COUNT(*) FROM conversations GROUP BY kind;
CREATE TRIGGER conversation_counts_after_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversation_counts (kind, n) VALUES (new.kind, 1)
    ON CONFLICT(kind) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER conversation_counts_after_delete AFTER DELETE ON conversations BEGIN
  UPDATE conversation_counts SET n = n - 1 WHERE kind = old.kind;
END;
`,
};
