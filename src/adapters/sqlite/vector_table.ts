/**
 * One table of embedding vectors for one kind of item (facts, conversation summaries, digests):
 * a float32 blob per (item, model), tagged with the item's version when it was embedded, so an
 * item rewritten since is "pending" again and its old vector is never found. The vectors table
 * references its item with ON DELETE CASCADE, so deleting an item deletes its vectors.
 *
 * `nearest` scans every current vector of the model: fine for a personal memory (10k items ×
 * 768 dims ≈ 30 MB read, tens of ms); a vector index would be the next step beyond that.
 */
import type { DatabaseSync } from "node:sqlite";
import { cosineSimilarity } from "../../core/embedding_model.ts";
import type { RecallVectors } from "../../core/recall.ts";
import { statement } from "./statements.ts";
import { fromVectorBlob, toVectorBlob } from "./vector_blob.ts";
import { write } from "./write.ts";

/** Where a kind of item and its vectors live, and how an item row reads. */
export interface VectorTableConfig<Row, Item> {
  /** The vectors table, e.g. "fact_embeddings" (columns: item, `model`, version, `vector`). */
  readonly table: string;
  /** Its column naming the item, e.g. "fact_id". */
  readonly itemColumn: string;
  /** Its column holding the item's version when embedded, e.g. "fact_updated_at". */
  readonly versionColumn: string;
  /** The items table, e.g. "facts". */
  readonly items: string;
  /** The items table's id column, e.g. "id". */
  readonly idColumn: string;
  /** The items table's version column, e.g. "updated_at". */
  readonly itemVersionColumn: string;
  /** The thing a vector write saves, for the one-line error ("the fact's vector"). */
  readonly what: string;
  /** The text embedded for an item row. */
  text(row: Row): string;
  /** An item row as the item recall shows. */
  toItem(row: Row): Item;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/** A vectors table as recall vectors (see the file comment). */
export class SqliteVectorTable<Row, Item> implements RecallVectors<Item> {
  readonly #sql: { pending: string; put: string; nearest: string; any: string };

  constructor(
    private readonly db: DatabaseSync,
    private readonly config: VectorTableConfig<Row, Item>,
  ) {
    const { table, itemColumn, versionColumn, items, idColumn, itemVersionColumn } = config;
    for (const name of [table, itemColumn, versionColumn, items, idColumn, itemVersionColumn]) {
      if (!identifier.test(name)) throw new Error(`not an SQL identifier: ${name}`);
    }
    this.#sql = {
      pending: `SELECT i.* FROM ${items} i
        LEFT JOIN ${table} e ON e.${itemColumn} = i.${idColumn} AND e.model = ?
        WHERE e.${itemColumn} IS NULL OR e.${versionColumn} <> i.${itemVersionColumn}
        ORDER BY i.${idColumn} LIMIT ?`,
      // Selecting from the items table stores nothing for an item deleted meanwhile.
      put: `INSERT OR REPLACE INTO ${table} (${itemColumn}, model, ${versionColumn}, vector)
        SELECT ${idColumn}, ?, ?, ? FROM ${items} WHERE ${idColumn} = ?`,
      nearest: `SELECT i.*, e.vector AS vector FROM ${table} e
        JOIN ${items} i ON i.${idColumn} = e.${itemColumn}
        WHERE e.model = ? AND e.${versionColumn} = i.${itemVersionColumn}`,
      any: `SELECT 1 FROM ${items} LIMIT 1`,
    };
  }

  /**
   * True when no item is stored. A subclass offers it as recall's `empty()` so a search embeds
   * nothing for a source without items (facts do not, as before).
   */
  protected noItems(): boolean {
    return !statement(this.db, this.#sql.any).get();
  }

  /** Items without a current vector of `model`, oldest (lowest id) first. */
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }> {
    const { idColumn, itemVersionColumn } = this.config;
    const rows = statement(this.db, this.#sql.pending).all(model, limit) as Array<
      Record<string, unknown>
    >;
    return rows.map((row) => ({
      id: Number(row[idColumn]),
      text: this.config.text(row as Row),
      version: String(row[itemVersionColumn]),
    }));
  }

  /** Stores (or replaces) an item's vector; nothing when the item is gone. */
  put(id: number, model: string, version: string, vector: number[]): void {
    write(this.db, this.config.what, this.#sql.put, model, version, toVectorBlob(vector), id);
  }

  /** The nearest items with a current vector of `model`, best first (damaged blobs skipped). */
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ item: Item; similarity: number }> {
    const rows = statement(this.db, this.#sql.nearest).all(model) as Array<
      Row & { vector: Uint8Array }
    >;
    return rows.flatMap((row) => {
      const stored = fromVectorBlob(row.vector);
      return stored ? [{ row, score: cosineSimilarity(vector, stored) }] : [];
    }).sort((a, b) => b.score - a.score).slice(0, limit).map(({ row, score }) => ({
      item: this.config.toItem(row),
      similarity: score,
    }));
  }
}
