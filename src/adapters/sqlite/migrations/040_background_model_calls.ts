/**
 * Schema 40: the model calls of unattended background work that is not a heartbeat or task run
 * (conversation summaries, daily and weekly digests), with the tokens the server reported: the
 * budget (`budget.daily_tokens`) counts them beside `heartbeat_runs`.
 */
import type { Migration } from "../database.ts";

/** One row per background model call. */
export const backgroundModelCallsMigration: Migration = {
  version: 40,
  name: "040_background_model_calls",
  sql: `
CREATE TABLE background_model_calls (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('summary', 'digest')),
  started_at TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX background_model_calls_started ON background_model_calls(started_at);
`,
};
