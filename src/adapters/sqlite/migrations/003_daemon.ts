/** Schema 3: the daemon's event queue, heartbeat runs, scheduled tasks and URL monitors. */
import type { Migration } from "../database.ts";

/** Daemon tables. */
export const daemonMigration: Migration = {
  version: 3,
  name: "003_daemon",
  sql: `
CREATE TABLE heartbeat_runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('heartbeat', 'task')),
  trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  task_id INTEGER,
  pid INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('running', 'skipped', 'ran', 'failed')),
  reason TEXT NOT NULL DEFAULT '',
  event_count INTEGER NOT NULL DEFAULT 0,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  model_ms INTEGER,
  duration_ms INTEGER,
  tools TEXT NOT NULL DEFAULT '[]',
  notifications INTEGER NOT NULL DEFAULT 0,
  answer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX heartbeat_runs_started ON heartbeat_runs(started_at);
CREATE INDEX heartbeat_runs_running ON heartbeat_runs(outcome) WHERE outcome = 'running';

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  kind TEXT NOT NULL,
  summary TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  urgent INTEGER NOT NULL DEFAULT 0,
  dedupe_key TEXT,
  created_at TEXT NOT NULL,
  consumed_at TEXT,
  consumed_by_run INTEGER REFERENCES heartbeat_runs(id) ON DELETE SET NULL
);
CREATE INDEX events_pending ON events(id) WHERE consumed_at IS NULL;
CREATE UNIQUE INDEX events_pending_dedupe ON events(dedupe_key)
  WHERE consumed_at IS NULL AND dedupe_key IS NOT NULL;

CREATE TABLE tasks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  message TEXT NOT NULL,
  schedule_kind TEXT NOT NULL CHECK (schedule_kind IN ('cron', 'every', 'at')),
  schedule TEXT NOT NULL,
  catch_up TEXT NOT NULL DEFAULT 'once_within_24h' CHECK (catch_up IN ('once_within_24h', 'skip')),
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  next_run_at TEXT,
  last_run_at TEXT,
  last_outcome TEXT,
  last_conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL
);

CREATE TABLE monitors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  selector TEXT NOT NULL DEFAULT '',
  every_minutes INTEGER NOT NULL,
  urgent INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_check_at TEXT NOT NULL,
  last_checked_at TEXT,
  last_changed_at TEXT,
  etag TEXT,
  last_modified TEXT,
  content TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
`,
};
