/**
 * Schema 10: embedding vectors — of tool descriptions (by model and text hash) and of facts (by
 * model; stale when the fact's `updated_at` moved on).
 */
import type { Migration } from "../database.ts";

/** The embedding tables. */
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
CREATE TABLE IF NOT EXISTS fact_embeddings (
  fact_id INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  fact_updated_at TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (fact_id, model)
) WITHOUT ROWID;
`,
};
