/** SQLite cache of tool-description vectors (migration 010), stored as float32 blobs. */
import type { DatabaseSync } from "node:sqlite";
import type { EmbeddingCache } from "../../core/tool_relevance.ts";
import { statement } from "./statements.ts";
import { fromVectorBlob, toVectorBlob } from "./vector_blob.ts";
import { write } from "./write.ts";

/** The `tool_embeddings` table as an EmbeddingCache. */
export class SqliteToolEmbeddings implements EmbeddingCache {
  #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The cached vector, or undefined (also for a damaged blob). */
  get(model: string, textHash: string): number[] | undefined {
    const row = statement(
      this.#db,
      "SELECT vector FROM tool_embeddings WHERE model = ? AND text_hash = ?",
    ).get(model, textHash) as { vector: Uint8Array } | undefined;
    return row && fromVectorBlob(row.vector);
  }

  /** Stores (or replaces) a vector. */
  put(model: string, textHash: string, vector: number[]): void {
    write(
      this.#db,
      "the tool's vector",
      "INSERT OR REPLACE INTO tool_embeddings (model, text_hash, vector) VALUES (?, ?, ?)",
      model,
      textHash,
      toVectorBlob(vector),
    );
  }
}
