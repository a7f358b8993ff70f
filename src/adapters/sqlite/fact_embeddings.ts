/** Fact vectors (migration 010): a fact's version is its `updated_at`. */
import type { DatabaseSync } from "node:sqlite";
import type { Fact } from "../../core/ports.ts";
import { toFact } from "./fact_store.ts";
import type { Row } from "./rows.ts";
import { SqliteVectorTable } from "./vector_table.ts";

/** The `fact_embeddings` table as recall vectors. */
export class SqliteFactEmbeddings extends SqliteVectorTable<Row, Fact> {
  constructor(db: DatabaseSync) {
    super(db, {
      table: "fact_embeddings",
      itemColumn: "fact_id",
      versionColumn: "fact_updated_at",
      items: "facts",
      idColumn: "id",
      itemVersionColumn: "updated_at",
      what: "the fact's vector",
      text: (row) => row.content as string,
      toItem: toFact,
    });
  }
}
