/**
 * Schema 29: one-shot tasks that already ran are disabled. Before this version a one-shot kept
 * its past due time after its run and ran again on every tick (and after every restart) until
 * its catch-up window closed; a run at or after the due time means it is spent.
 */
import type { Migration } from "../database.ts";

/** Disables the one-shots a run has already served. */
export const spentOneShotsMigration: Migration = {
  version: 29,
  name: "029_spent_one_shots",
  sql: `
UPDATE tasks SET enabled = 0, next_run_at = NULL
WHERE schedule_kind = 'at' AND enabled = 1 AND next_run_at IS NOT NULL
  AND last_run_at IS NOT NULL AND last_run_at >= next_run_at;
`,
};
