/** Schema 13: the custom checks' last results and the GitHub items already queued. */
import type { Migration } from "../database.ts";

/** Last result per check (what "changed" compares with) and GitHub dedup by kind + id. */
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
`,
};
