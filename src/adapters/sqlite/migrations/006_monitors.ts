/** Schema 6: URL monitors can be paused, and remember their last result in words. */
import type { Migration } from "../database.ts";

/** Monitor columns the first daemon schema did not have. */
export const monitorsMigration: Migration = {
  version: 6,
  name: "006_monitors",
  sql: `
ALTER TABLE monitors ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE monitors ADD COLUMN last_result TEXT;
`,
};
