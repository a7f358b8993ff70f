/**
 * Memory search by keywords and meaning: FTS5 hits and embedding neighbours merged by
 * reciprocal-rank fusion. Facts are embedded lazily (a bounded batch per search, so a large
 * backlog fills over several searches); without an embedding model, or while its server fails
 * (one warning, a retry after `retryAfterMs`), this is the FTS5 search alone.
 */
import type { EmbeddingModel } from "./embedding_model.ts";
import type { Fact, FactStore } from "./ports.ts";
import type { MemoryHit } from "./hooks.ts";

/** Port: stored fact vectors (SQLite in production). */
export interface FactVectorIndex {
  /** Facts without a vector of `model` for their current text, oldest first. */
  pending(model: string, limit: number): Array<{ id: number; content: string; updatedAt: string }>;
  put(factId: number, model: string, factUpdatedAt: string, vector: number[]): void;
  /** The facts nearest to `vector` by cosine similarity, best first. */
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ fact: Fact; similarity: number }>;
}

/** What semantic recall is built from. */
export interface SemanticRecallOptions {
  facts: Pick<FactStore, "searchFacts">;
  vectors: FactVectorIndex;
  model?: EmbeddingModel;
  warn: (message: string) => void;
  /** Milliseconds clock (injected). */
  now: () => number;
  retryAfterMs?: number;
  /** Facts embedded per search at most (default 64). */
  batchSize?: number;
}

/**
 * Neighbours further than this below the best one are left out: every fact has a nearest
 * neighbour, and a small model should not read unrelated facts as answers.
 */
const similarityMargin = 0.15;

/** Reciprocal-rank-fusion constant. */
const fusionK = 60;

/** Port the recall tool uses: the best facts (and other memories, e.g. summaries) for a query. */
export interface MemorySearch {
  search(query: string, limit: number, signal?: AbortSignal): Promise<readonly MemoryHit[]>;
}

/** FTS5 + embeddings with reciprocal-rank fusion; FTS5 alone when embeddings are unavailable. */
export class SemanticRecall implements MemorySearch {
  #options: SemanticRecallOptions;
  #failedAt: number | undefined;

  constructor(options: SemanticRecallOptions) {
    this.#options = options;
  }

  /** The best `limit` facts for the query. */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<Fact[]> {
    const keyword = this.#options.facts.searchFacts(query, limit * 2);
    const semantic = await this.#semantic(query, limit * 2, signal);
    if (!semantic) return keyword.slice(0, limit);
    const scores = new Map<number, { fact: Fact; score: number }>();
    for (const ranking of [keyword, semantic]) {
      ranking.forEach((fact, rank) => {
        const entry = scores.get(fact.id) ?? { fact, score: 0 };
        entry.score += 1 / (fusionK + rank);
        scores.set(fact.id, entry);
      });
    }
    return [...scores.values()].sort((a, b) => b.score - a.score).slice(0, limit)
      .map((entry) => entry.fact);
  }

  async #semantic(query: string, limit: number, signal?: AbortSignal): Promise<Fact[] | undefined> {
    const { model, vectors, now } = this.#options;
    if (!model) return undefined;
    if (
      this.#failedAt !== undefined &&
      now() - this.#failedAt < (this.#options.retryAfterMs ?? 600_000)
    ) {
      return undefined;
    }
    try {
      const pending = vectors.pending(model.model, this.#options.batchSize ?? 64);
      const embedded = await model.embed([query, ...pending.map((fact) => fact.content)], signal);
      if (embedded.length !== pending.length + 1) {
        throw new Error(`expected ${pending.length + 1} vectors, got ${embedded.length}`);
      }
      pending.forEach((fact, index) =>
        vectors.put(fact.id, model.model, fact.updatedAt, embedded[index + 1])
      );
      this.#failedAt = undefined;
      const near = vectors.nearest(model.model, embedded[0], limit);
      const floor = (near[0]?.similarity ?? 0) - similarityMargin;
      return near.filter((entry) => entry.similarity >= floor).map((entry) => entry.fact);
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (this.#failedAt === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#options.warn(
          `Embedding model "${model.model}" failed (${reason}); memory search uses keywords only.`,
        );
      }
      this.#failedAt = now();
      return undefined;
    }
  }
}
