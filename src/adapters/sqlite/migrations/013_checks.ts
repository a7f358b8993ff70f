/** Schema 13: the custom checks' last results, the GitHub items already queued, digests. */
import type { Migration } from "../database.ts";

/** Last result per check, GitHub dedup by kind + id, digests with full-text search. */
export const checksMigration: Migration = {
  version: 13,
  name: "013_checks",
  sql: `
CREATE TABLE check_results (
  name TEXT PRIMARY KEY,
  output_hash TEXT,
  exit_code INTEGER,
  json_value TEXT,
  failing INTEGER NOT NULL DEFAULT 0,
  last_run_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL DEFAULT 0,
  output TEXT NOT NULL DEFAULT ''
);
CREATE TABLE github_seen (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  version TEXT NOT NULL DEFAULT '',
  seen_at TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE TABLE digests (
  id INTEGER PRIMARY KEY,
  period TEXT NOT NULL CHECK (period IN ('day', 'week')),
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (period, starts_at)
);
CREATE VIRTUAL TABLE digests_fts USING fts5(content, content='digests', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER digests_after_insert AFTER INSERT ON digests BEGIN
  INSERT INTO digests_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER digests_after_delete AFTER DELETE ON digests BEGIN
  INSERT INTO digests_fts(digests_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER digests_after_update AFTER UPDATE ON digests BEGIN
  INSERT INTO digests_fts(digests_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO digests_fts(rowid, content) VALUES (new.id, new.content);
END;
`,
};
