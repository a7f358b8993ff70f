/**
 * The embedding side of the runtime, when `llm.embedding_model` is set: tool ranking (vectors
 * cached in `tool_embeddings`) and semantic memory (`fact_embeddings`, `summary_embeddings`).
 * Without it, tools rank and memories (facts, conversation summaries) match by keywords.
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
import { MemoryWithSummaries } from "../core/summary_recall.ts";
import { SqliteSummaryEmbeddings, SqliteSummaryStore } from "../adapters/sqlite/summary_store.ts";

/** Memory search (facts and conversation summaries) and tool ranking (absent without a model). */
export function embeddingParts(
  config: RadarConfig,
  db: DatabaseSync,
  parts: { facts: SqliteFactStore; fetch: typeof fetch; logger: Logger; clock: Clock },
): { memory: MemorySearch; toolRanker?: ToolRanker } {
  const model = createEmbeddingModel(config.llm, {
    fetch: parts.fetch,
    logger: parts.logger,
    sleep,
  });
  const now = () => parts.clock.now().getTime();
  let warnedAt: number | undefined;
  const common = {
    model,
    // Facts and summaries share one embedding server: its failure is one warning, not two.
    warn: (line: string) => {
      if (warnedAt !== undefined && now() - warnedAt < 60_000) return;
      warnedAt = now();
      parts.logger.warn(line);
    },
    now,
  };
  const facts: MemorySearch = model
    ? new SemanticRecall({ ...common, facts: parts.facts, vectors: new SqliteFactEmbeddings(db) })
    : { search: (query, limit) => Promise.resolve(parts.facts.searchFacts(query, limit)) };
  const memory = new MemoryWithSummaries({
    ...common,
    facts,
    summaries: new SqliteSummaryStore(db),
    vectors: new SqliteSummaryEmbeddings(db),
  });
  if (!model) return { memory };
  return {
    memory,
    toolRanker: new EmbeddingToolRanker({ ...common, model, cache: new SqliteToolEmbeddings(db) }),
  };
}
