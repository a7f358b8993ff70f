/** Schema 19: vectors of the daily/weekly digests, by embedding model, deleted with their digest. */
import type { Migration } from "../database.ts";

/**
 * `digest_created_at` is the digest's `created_at` when it was embedded: a rewritten digest
 * (same period, new text, new `created_at`) has a stale vector until it is embedded again.
 */
export const digestEmbeddingsMigration: Migration = {
  version: 19,
  name: "019_digest_embeddings",
  sql: `
CREATE TABLE digest_embeddings (
  digest_id INTEGER NOT NULL REFERENCES digests(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  digest_created_at TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (digest_id, model)
) WITHOUT ROWID;
`,
};
