/** SQLite cache of tool-description vectors (migration 010), stored as float32 blobs. */
import type { DatabaseSync } from "node:sqlite";
import type { EmbeddingCache } from "../../core/tool_embedding_ranker.ts";

/** The `tool_embeddings` table as an EmbeddingCache. */
export class SqliteToolEmbeddings implements EmbeddingCache {
  #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The cached vector, or undefined (also for a damaged blob). */
  get(model: string, textHash: string): number[] | undefined {
    const row = this.#db.prepare(
      "SELECT vector FROM tool_embeddings WHERE model = ? AND text_hash = ?",
    ).get(model, textHash) as { vector: Uint8Array } | undefined;
    if (!row || row.vector.byteLength % 4 !== 0 || row.vector.byteLength === 0) return undefined;
    const copy = row.vector.slice();
    return [...new Float32Array(copy.buffer, 0, copy.byteLength / 4)];
  }

  /** Stores (or replaces) a vector. */
  put(model: string, textHash: string, vector: number[]): void {
    const bytes = new Uint8Array(new Float32Array(vector).buffer);
    this.#db.prepare(
      "INSERT OR REPLACE INTO tool_embeddings (model, text_hash, vector) VALUES (?, ?, ?)",
    ).run(model, textHash, bytes);
  }
}
