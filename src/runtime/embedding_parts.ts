/**
 * The embedding side of the runtime, when `llm.embedding_model` is set: tool ranking (vectors
 * cached in `tool_embeddings`) and semantic memory (`fact_embeddings`, `summary_embeddings`,
 * `digest_embeddings`).
 * Without it, tools rank and memories (facts, conversation summaries, digests) match by keywords.
 */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { sleep } from "../adapters/clock.ts";
import {
  type DigestSearch,
  digestSource,
  factSource,
  type MemorySearch,
  Recall,
  summarySource,
} from "../core/recall.ts";
import { EmbeddingToolRanker, type ToolRanker } from "../core/tool_relevance.ts";
import { maskedEmbeddingModel } from "./masked_ports.ts";
import type { Secrets } from "../core/secrets.ts";
import type { SqliteFactStore } from "../adapters/sqlite/fact_store.ts";
import { SqliteSummaryStore } from "../adapters/sqlite/summary_store.ts";

/**
 * Memory search (facts, summaries, digests), tool ranking and `embedNew` (embeds what was just
 * written, e.g. a digest; both absent without a model).
 */
export interface EmbeddingParts {
  memory: MemorySearch;
  toolRanker?: ToolRanker;
  embedNew?: (signal?: AbortSignal) => Promise<number>;
}

/** The embedding client, loaded only when `llm.embedding_model` is set. */
function embeddingModelModule(): Promise<
  typeof import("../adapters/llm/create_embedding_model.ts")
> {
  return import(new URL("../adapters/llm/create_embedding_model.ts", import.meta.url).href);
}

/** The stores of vectors, loaded only with an embedding model (none is read or written without). */
function embeddingStoresModule(): Promise<typeof import("../adapters/sqlite/embedding_stores.ts")> {
  return import(new URL("../adapters/sqlite/embedding_stores.ts", import.meta.url).href);
}

/** Builds memory search, and with an embedding model the tool ranker and `embedNew`. */
export async function embeddingParts(
  config: RadarConfig,
  db: DatabaseSync,
  parts: {
    facts: SqliteFactStore;
    digests: DigestSearch;
    fetch: typeof fetch;
    logger: Logger;
    clock: Clock;
    secrets: Secrets;
  },
): Promise<EmbeddingParts> {
  const server = config.llm.embedding_model.trim()
    ? (await embeddingModelModule()).createEmbeddingModel(config.llm, {
      fetch: parts.fetch,
      logger: parts.logger,
      sleep,
    })
    : undefined;
  // Every text sent to the embedding server is masked with the secrets known at that moment.
  const model = server && maskedEmbeddingModel(server, parts.secrets);
  const summaries = new SqliteSummaryStore(db);
  if (!model) {
    const keywords = [
      factSource(parts.facts),
      summarySource(summaries),
      digestSource(parts.digests),
    ];
    return { memory: new Recall(keywords) };
  }
  const now = () => parts.clock.now().getTime();
  let warnedAt: number | undefined;
  const common = {
    // Memory and tool ranking share one embedding server: its failure is one warning, not two.
    warn: (line: string) => {
      if (warnedAt !== undefined && now() - warnedAt < 60_000) return;
      warnedAt = now();
      parts.logger.warn(line);
    },
    now,
  };
  const vectors = (await embeddingStoresModule()).sqliteEmbeddingStores(db);
  const memory = new Recall([
    factSource(parts.facts, { vectors: vectors.facts }),
    summarySource(summaries, vectors.summaries),
    digestSource(parts.digests, vectors.digests),
  ], { ...common, model });
  return {
    memory,
    embedNew: (signal) => memory.embedPending(signal),
    toolRanker: new EmbeddingToolRanker({ ...common, model, cache: vectors.tools }),
  };
}
