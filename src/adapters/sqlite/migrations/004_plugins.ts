/**
 * Schema 4: plugin approvals (which exact files, with which permissions, approved by whom) and the
 * latest review state of each plugin (test results, errors, LLM debug attempts).
 */
import type { Migration } from "../database.ts";

/** Plugin approval records and review state. */
export const pluginsMigration: Migration = {
  version: 4,
  name: "004_plugins",
  sql: `
CREATE TABLE plugin_approvals (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  files_hash TEXT NOT NULL,
  trust_level TEXT NOT NULL CHECK (trust_level IN ('sandbox', 'local')),
  grant_json TEXT NOT NULL,
  approved_by TEXT NOT NULL CHECK (approved_by IN ('user', 'tests_passed')),
  approved_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX plugin_approvals_name_hash ON plugin_approvals(name, files_hash);

CREATE TABLE plugin_reviews (
  name TEXT PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('install', 'folder', 'llm', 'changed')),
  files_hash TEXT NOT NULL DEFAULT '',
  errors_json TEXT NOT NULL DEFAULT '[]',
  tests_json TEXT NOT NULL DEFAULT '[]',
  attempts INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
`,
};
