/** Schema 14: a task may run with its own personality. */
import type { Migration } from "../database.ts";

/** `tasks.personality`: the personality's name, NULL for the active one. */
export const personalitiesMigration: Migration = {
  version: 14,
  name: "014_personalities",
  sql: `ALTER TABLE tasks ADD COLUMN personality TEXT;`,
};
