/**
 * Digest vectors (migration 019) for recall's search by meaning. A digest's version is its
 * `created_at`, so a rewritten digest is embedded again. One digest a day is a few hundred a year.
 */
import type { DatabaseSync } from "node:sqlite";
import type { Digest } from "../../core/source_ports.ts";
import { SqliteVectorTable } from "./vector_table.ts";
import { toDigest } from "./digest_store.ts";
import type { Row } from "./rows.ts";

/** The `digest_embeddings` table as recall vectors. */
export class SqliteDigestEmbeddings extends SqliteVectorTable<Row, Digest> {
  constructor(db: DatabaseSync) {
    super(db, {
      table: "digest_embeddings",
      itemColumn: "digest_id",
      versionColumn: "digest_created_at",
      items: "digests",
      idColumn: "id",
      itemVersionColumn: "created_at",
      what: "the digest's vector",
      text: (row) => row.content as string,
      toItem: toDigest,
    });
  }

  /** True when no digest is stored (then a search embeds nothing for digests). */
  empty(): boolean {
    return this.noItems();
  }
}
