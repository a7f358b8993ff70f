/**
 * Schema 49: what Radar spends and keeps has a bound. Every model call counts against the budget,
 * so `background_model_calls` also records money categorisation and vision calls (scanned pages,
 * comic covers, the browser's look): SQLite cannot change a CHECK, the table is rebuilt with its
 * rows. The action journal stays within `tools.files.journal_max_mib`: a change whose saved
 * original was dropped for it records when (`copy_dropped_at`), and can no longer be undone.
 */
import type { Migration } from "../database.ts";

/** Counted model calls and the journal's dropped originals. */
export const boundsMigration: Migration = {
  version: 49,
  name: "049_bounds",
  sql: `
CREATE TABLE background_model_calls_049 (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('summary', 'digest', 'money', 'vision')),
  started_at TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  detail TEXT NOT NULL DEFAULT ''
);
INSERT INTO background_model_calls_049 (id, kind, started_at, prompt_tokens, completion_tokens,
  detail)
  SELECT id, kind, started_at, prompt_tokens, completion_tokens, detail FROM background_model_calls;
DROP TABLE background_model_calls;
ALTER TABLE background_model_calls_049 RENAME TO background_model_calls;
CREATE INDEX background_model_calls_started ON background_model_calls(started_at);
ALTER TABLE action_journal ADD COLUMN copy_dropped_at TEXT;
`,
};
