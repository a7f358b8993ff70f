/** Schema 21: standing grants ("Always allow…", `radar grants add`). */
import type { Migration } from "../database.ts";

/** One row per grant: the tool, its argument patterns (JSON object), a note, and its use. */
export const grantsMigration: Migration = {
  version: 21,
  name: "021_grants",
  sql: `
CREATE TABLE grants (
  id INTEGER PRIMARY KEY,
  tool TEXT NOT NULL,
  arguments TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  approval_id INTEGER,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  uses INTEGER NOT NULL DEFAULT 0
);
`,
};
