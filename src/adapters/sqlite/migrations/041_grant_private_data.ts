/**
 * Schema 41: a standing grant says whether it lets private data leave, and to which origins
 * (`private_data_to`, a JSON list; empty: never). Grants made before cover no private data.
 */
import type { Migration } from "../database.ts";

/** `grants.private_data_to`. */
export const grantPrivateDataMigration: Migration = {
  version: 41,
  name: "041_grant_private_data",
  sql: `
ALTER TABLE grants ADD COLUMN private_data_to TEXT NOT NULL DEFAULT '[]';
`,
};
