/**
 * Every store of vectors (facts, conversation summaries, digests, tool descriptions): used only
 * with an embedding model (`llm.embedding_model`), so the runtime loads this module then.
 */
import type { DatabaseSync } from "node:sqlite";
import { SqliteFactEmbeddings } from "./fact_embeddings.ts";
import { SqliteSummaryEmbeddings } from "./summary_embeddings.ts";
import { SqliteDigestEmbeddings } from "./digest_embeddings.ts";
import { SqliteToolEmbeddings } from "./tool_embeddings.ts";

/** The vector stores over one database. */
export function sqliteEmbeddingStores(db: DatabaseSync) {
  return {
    facts: new SqliteFactEmbeddings(db),
    summaries: new SqliteSummaryEmbeddings(db),
    digests: new SqliteDigestEmbeddings(db),
    tools: new SqliteToolEmbeddings(db),
  };
}
