/** Schema 10: cached embedding vectors of tool descriptions (by model and text hash). */
import type { Migration } from "../database.ts";

/** The embedding cache table. */
export const embeddingsMigration: Migration = {
  version: 10,
  name: "010_embeddings",
  sql: `
CREATE TABLE IF NOT EXISTS tool_embeddings (
  model TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
`,
};
