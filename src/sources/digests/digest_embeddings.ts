/**
 * Digest vectors (migration 023) for recall's search by meaning. A digest's version is its
 * `created_at`, so a rewritten digest is embedded again; its vectors are deleted with it (foreign
 * key). `nearest` scans the model's vectors: one digest a day is a few hundred a year.
 */
import type { DatabaseSync } from "node:sqlite";
import { cosineSimilarity } from "../../core/embedding_model.ts";
import type { RecallVectors } from "../../core/recall.ts";
import type { Digest } from "../../core/source_ports.ts";
import { fromVectorBlob, toVectorBlob } from "../../adapters/sqlite/vector_blob.ts";
import { write } from "../../adapters/sqlite/write.ts";
import { type DigestRow, toDigest } from "./digest_store.ts";

/** The `digest_embeddings` table as recall vectors. */
export class SqliteDigestEmbeddings implements RecallVectors<Digest> {
  constructor(private readonly db: DatabaseSync) {}

  /** True when no digest is stored (then a search embeds nothing for digests). */
  empty(): boolean {
    return !this.db.prepare("SELECT 1 FROM digests LIMIT 1").get();
  }

  /** Digests without a current vector of `model`, oldest first. */
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }> {
    const rows = this.db.prepare(
      `SELECT d.id, d.content, d.created_at FROM digests d
       LEFT JOIN digest_embeddings e ON e.digest_id = d.id AND e.model = ?
       WHERE e.digest_id IS NULL OR e.digest_created_at <> d.created_at
       ORDER BY d.id LIMIT ?`,
    ).all(model, limit) as unknown as Array<Pick<DigestRow, "id" | "content" | "created_at">>;
    return rows.map((row) => ({
      id: Number(row.id),
      text: row.content,
      version: row.created_at,
    }));
  }

  /** Stores (or replaces) a digest's vector; nothing when the digest is gone meanwhile. */
  put(digestId: number, model: string, version: string, vector: number[]): void {
    write(
      this.db,
      "the digest's vector",
      `INSERT OR REPLACE INTO digest_embeddings (digest_id, model, digest_created_at, vector)
       SELECT id, ?, ?, ? FROM digests WHERE id = ?`,
      model,
      version,
      toVectorBlob(vector),
      digestId,
    );
  }

  /** The nearest digests with a current vector, best first. */
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ item: Digest; similarity: number }> {
    const rows = this.db.prepare(
      `SELECT d.*, e.vector FROM digest_embeddings e JOIN digests d ON d.id = e.digest_id
       WHERE e.model = ? AND e.digest_created_at = d.created_at`,
    ).all(model) as unknown as Array<DigestRow & { vector: Uint8Array }>;
    return rows.flatMap((row) => {
      const stored = fromVectorBlob(row.vector);
      return stored ? [{ row, score: cosineSimilarity(vector, stored) }] : [];
    }).sort((a, b) => b.score - a.score).slice(0, limit).map(({ row, score }) => ({
      item: toDigest(row),
      similarity: score,
    }));
  }
}
