/**
 * Schema 9: durability of the daemon — files a folder watcher has seen (settled on the stored
 * row, so a kill loses none), per-folder watcher counters, the outbox of side effects (a
 * notification is recorded under a key before it is sent and never sent twice), the scheduled
 * task runs in progress (an interrupted one is retried under the same outbox keys), and the
 * origin/approval of tasks a model created.
 */
import type { Migration } from "../database.ts";

/** Watcher, outbox and task-origin tables. */
export const durabilityMigration: Migration = {
  version: 9,
  name: "009_durability",
  sql: `
CREATE TABLE watched_files (
  folder TEXT NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL DEFAULT -1,
  mtime_ms INTEGER NOT NULL DEFAULT -1,
  state TEXT NOT NULL CHECK (state IN ('settling', 'queued', 'baseline')),
  first_seen_at TEXT NOT NULL,
  stable_since_ms INTEGER NOT NULL,
  PRIMARY KEY (folder, path)
) WITHOUT ROWID;
CREATE INDEX watched_files_settling ON watched_files(folder) WHERE state = 'settling';

CREATE TABLE watcher_stats (
  folder TEXT PRIMARY KEY,
  scans INTEGER NOT NULL DEFAULT 0,
  rescans INTEGER NOT NULL DEFAULT 0,
  recovered INTEGER NOT NULL DEFAULT 0,
  queued INTEGER NOT NULL DEFAULT 0,
  last_scan_at TEXT,
  last_event_at TEXT
);

CREATE TABLE outbox (
  key TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  sent_at TEXT,
  pid INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_created ON outbox(created_at);

CREATE TABLE task_claims (
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  run_id INTEGER NOT NULL,
  due_at TEXT NOT NULL,
  claimed_at TEXT NOT NULL
);

CREATE TABLE task_origins (
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  origin TEXT NOT NULL CHECK (origin IN ('user', 'model')),
  approved_at TEXT
);
`,
};
