/**
 * The embedding side of the runtime, when `llm.embedding_model` is set: tool ranking (vectors
 * cached in `tool_embeddings`) and semantic memory (`fact_embeddings`). Without it, neither
 * exists and tools rank and facts match by keywords.
 */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { sleep } from "../adapters/clock.ts";
import { type MemorySearch, SemanticRecall } from "../core/semantic_recall.ts";
import { EmbeddingToolRanker } from "../core/tool_embedding_ranker.ts";
import type { ToolRanker } from "../core/tool_relevance.ts";
import { createEmbeddingModel } from "../adapters/llm/create_embedding_model.ts";
import { SqliteFactEmbeddings } from "../adapters/sqlite/fact_embeddings.ts";
import { SqliteToolEmbeddings } from "../adapters/sqlite/tool_embeddings.ts";
import type { SqliteFactStore } from "../adapters/sqlite/fact_store.ts";

/** Memory search and tool ranking over the configured embedding model (both absent without). */
export function embeddingParts(
  config: RadarConfig,
  db: DatabaseSync,
  parts: { facts: SqliteFactStore; fetch: typeof fetch; logger: Logger; clock: Clock },
): { memory?: MemorySearch; toolRanker?: ToolRanker } {
  const model = createEmbeddingModel(config.llm, {
    fetch: parts.fetch,
    logger: parts.logger,
    sleep,
  });
  if (!model) return {};
  const common = {
    model,
    warn: (line: string) => parts.logger.warn(line),
    now: () => parts.clock.now().getTime(),
  };
  return {
    memory: new SemanticRecall({
      ...common,
      facts: parts.facts,
      vectors: new SqliteFactEmbeddings(db),
    }),
    toolRanker: new EmbeddingToolRanker({ ...common, cache: new SqliteToolEmbeddings(db) }),
  };
}
