/**
 * Schema 47: eval runs of more than one suite (`radar eval --suite proactive`): which suite a run
 * scored, its false alarms and misses counted apart, and per scenario the expected and the
 * observed decision (act with a tool, notify, ask, stay quiet).
 */
import type { Migration } from "../database.ts";

/** The suite and the decision columns; older runs are the `tasks` suite. */
export const proactiveEvalMigration: Migration = {
  version: 47,
  name: "047_proactive_eval",
  sql: `
ALTER TABLE eval_runs ADD COLUMN suite TEXT NOT NULL DEFAULT 'tasks';
ALTER TABLE eval_runs ADD COLUMN false_alarms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE eval_runs ADD COLUMN misses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE eval_task_results ADD COLUMN expected TEXT NOT NULL DEFAULT '';
ALTER TABLE eval_task_results ADD COLUMN decision TEXT NOT NULL DEFAULT '';
CREATE INDEX eval_runs_model_suite ON eval_runs(model, suite, id);
`,
};
