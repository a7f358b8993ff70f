/** Schema 22: the action journal (every file change a tool made, for undo). */
import type { Migration } from "../database.ts";

/**
 * One row per change: what (kind, tool), where (path, from), the file before and after (JSON
 * FileState), the saved copy of replaced content, folders the change created, which run made it,
 * and whether it was undone.
 */
export const actionJournalMigration: Migration = {
  version: 22,
  name: "022_action_journal",
  sql: `
CREATE TABLE action_journal (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  tool TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('move', 'copy', 'create', 'replace', 'append')),
  path TEXT NOT NULL,
  from_path TEXT,
  before_state TEXT,
  backup TEXT,
  after_state TEXT NOT NULL,
  created_folders TEXT NOT NULL DEFAULT '[]',
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  run_kind TEXT,
  approval_id INTEGER,
  grant_id TEXT,
  undone_at TEXT,
  undo_note TEXT
);
CREATE INDEX action_journal_at ON action_journal(at);
`,
};
