/**
 * Fact vectors (migration 010) as float32 blobs. `nearest` scans every vector of the model:
 * fine for a personal memory (10k facts × 768 dims ≈ 30 MB read, tens of ms); a vector index
 * would be the next step beyond that.
 */
import type { DatabaseSync } from "node:sqlite";
import { cosineSimilarity } from "../../core/embedding_model.ts";
import type { Fact } from "../../core/ports.ts";
import { type FactRow, toFact } from "./fact_store.ts";
import type { RecallVectors } from "../../core/recall.ts";

interface VectorRow extends FactRow {
  vector: Uint8Array;
}

/** Float32 bytes → numbers (undefined for a damaged blob). */
function toVector(bytes: Uint8Array): number[] | undefined {
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  const copy = bytes.slice();
  return [...new Float32Array(copy.buffer, 0, copy.byteLength / 4)];
}

/** The `fact_embeddings` table as recall vectors (a fact's version is its `updated_at`). */
export class SqliteFactEmbeddings implements RecallVectors<Fact> {
  constructor(private readonly db: DatabaseSync) {}

  /** Facts whose vector for `model` is missing or older than the fact's text. */
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }> {
    const rows = this.db.prepare(
      `SELECT f.id, f.content, f.updated_at FROM facts f
       LEFT JOIN fact_embeddings e ON e.fact_id = f.id AND e.model = ?
       WHERE e.fact_id IS NULL OR e.fact_updated_at <> f.updated_at
       ORDER BY f.id LIMIT ?`,
    ).all(model, limit) as unknown as Array<{ id: number; content: string; updated_at: string }>;
    return rows.map((row) => ({ id: row.id, text: row.content, version: row.updated_at }));
  }

  /** Stores (or replaces) a fact's vector. */
  put(factId: number, model: string, factUpdatedAt: string, vector: number[]): void {
    this.db.prepare(
      `INSERT OR REPLACE INTO fact_embeddings (fact_id, model, fact_updated_at, vector)
       VALUES (?, ?, ?, ?)`,
    ).run(factId, model, factUpdatedAt, new Uint8Array(new Float32Array(vector).buffer));
  }

  /** The nearest current facts, best first. */
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ item: Fact; similarity: number }> {
    const rows = this.db.prepare(
      `SELECT f.*, e.vector FROM fact_embeddings e JOIN facts f ON f.id = e.fact_id
       WHERE e.model = ? AND e.fact_updated_at = f.updated_at`,
    ).all(model) as unknown as VectorRow[];
    return rows.flatMap((row) => {
      const stored = toVector(row.vector);
      return stored ? [{ row, score: cosineSimilarity(vector, stored) }] : [];
    }).sort((a, b) => b.score - a.score).slice(0, limit).map(({ row, score }) => ({
      item: toFact(row),
      similarity: score,
    }));
  }
}
