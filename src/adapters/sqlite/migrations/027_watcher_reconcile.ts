/**
 * Schema 27: the folder watchers' reconcile counters. A watcher compares its folder with the
 * stored files after bursts, dropped-event flags and errors, and periodically while idle; a file
 * found that way is one the OS event stream lost, so its count is kept apart from the files a
 * start scan finds (arrived while the daemon was down).
 */
import type { Migration } from "../database.ts";

/** Reconcile counters on `watcher_stats`. */
export const watcherReconcileMigration: Migration = {
  version: 27,
  name: "027_watcher_reconcile",
  sql: `
ALTER TABLE watcher_stats ADD COLUMN reconciles INTEGER NOT NULL DEFAULT 0;
ALTER TABLE watcher_stats ADD COLUMN found_by_reconcile INTEGER NOT NULL DEFAULT 0;
ALTER TABLE watcher_stats ADD COLUMN last_reconcile_at TEXT;
ALTER TABLE watcher_stats ADD COLUMN last_reconcile_reason TEXT;
ALTER TABLE watcher_stats ADD COLUMN last_reconcile_ms INTEGER;
`,
};
