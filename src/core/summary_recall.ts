/**
 * Conversation summaries as a recall source: FTS5 hits and embedding neighbours fused by
 * reciprocal rank (like facts, src/core/semantic_recall.ts), then merged with the fact hits.
 * Without an embedding model, or while it fails (one warning, retried later), keywords only.
 */
import type { EmbeddingModel } from "./embedding_model.ts";
import type { MemoryHit } from "./hooks.ts";
import type { MemorySearch } from "./semantic_recall.ts";
import {
  summaryHitId,
  summaryLabel,
  type SummaryRecord,
  type SummaryStore,
} from "./conversation_summary.ts";

/** Port: stored summary vectors. */
export interface SummaryVectorIndex {
  /** True when no summary is stored (then the query is not embedded for them). */
  empty(): boolean;
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }>;
  put(conversationId: number, model: string, version: string, vector: number[]): void;
  nearest(
    model: string,
    vector: number[],
    limit: number,
  ): Array<{ item: SummaryRecord; similarity: number }>;
}

/** What summary recall is built from. */
export interface SummaryRecallOptions {
  /** Facts (semantic or keyword search). */
  facts: MemorySearch;
  summaries: Pick<SummaryStore, "search">;
  vectors?: SummaryVectorIndex;
  model?: EmbeddingModel;
  warn: (message: string) => void;
  now: () => number;
  retryAfterMs?: number;
}

/** Summaries one recall returns at most (they are longer than facts). */
export const summaryRecallLimit = 2;

/** Characters of one summary a recall shows. */
const summaryExcerptChars = 600;

const fusionK = 60;
const similarityMargin = 0.15;
/** Summaries less similar than this are never shown by meaning alone (every one has a nearest). */
const minimumSimilarity = 0.3;

/** Fuses best-first rankings by reciprocal rank (ties: earlier rankings first). */
export function fuseByRank<T>(rankings: T[][], key: (item: T) => number, limit: number): T[] {
  const scores = new Map<number, { item: T; score: number; order: number }>();
  rankings.forEach((ranking, order) =>
    ranking.forEach((item, rank) => {
      const entry = scores.get(key(item)) ?? { item, score: 0, order };
      entry.score += 1 / (fusionK + rank);
      scores.set(key(item), entry);
    })
  );
  return [...scores.values()].sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit).map((entry) => entry.item);
}

/** A summary as a memory hit, labelled with its conversation's title and date. */
export function summaryHit(summary: SummaryRecord): MemoryHit {
  const content = summary.content.length > summaryExcerptChars
    ? `${summary.content.slice(0, summaryExcerptChars)}…`
    : summary.content;
  return { id: summaryHitId(summary.conversationId), category: summaryLabel(summary), content };
}

/** Facts plus conversation summaries, by keywords and meaning. */
export class MemoryWithSummaries implements MemorySearch {
  #options: SummaryRecallOptions;
  #failedAt: number | undefined;

  constructor(options: SummaryRecallOptions) {
    this.#options = options;
  }

  /** The best `limit` hits of facts and summaries. */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<MemoryHit[]> {
    const facts = await this.#options.facts.search(query, limit, signal);
    const keyword = this.#options.summaries.search(query, summaryRecallLimit * 2);
    const semantic = await this.#semantic(query, summaryRecallLimit * 2, signal);
    const summaries = fuseByRank(
      semantic ? [keyword, semantic] : [keyword],
      (summary) => summary.conversationId,
      summaryRecallLimit,
    ).map(summaryHit);
    return fuseByRank<MemoryHit>([[...facts], summaries], (hit) => hit.id, limit);
  }

  async #semantic(
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<SummaryRecord[] | undefined> {
    const { model, vectors, now } = this.#options;
    if (!model || !vectors || vectors.empty()) return undefined;
    const retryAfter = this.#options.retryAfterMs ?? 600_000;
    if (this.#failedAt !== undefined && now() - this.#failedAt < retryAfter) return undefined;
    try {
      const pending = vectors.pending(model.model, 32);
      const embedded = await model.embed([query, ...pending.map((item) => item.text)], signal);
      if (embedded.length !== pending.length + 1) {
        throw new Error(`expected ${pending.length + 1} vectors, got ${embedded.length}`);
      }
      pending.forEach((item, index) =>
        vectors.put(item.id, model.model, item.version, embedded[index + 1])
      );
      this.#failedAt = undefined;
      const near = vectors.nearest(model.model, embedded[0], limit);
      const floor = Math.max(minimumSimilarity, (near[0]?.similarity ?? 0) - similarityMargin);
      return near.filter((entry) => entry.similarity >= floor).map((entry) => entry.item);
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (this.#failedAt === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#options.warn(
          `Embedding model "${model.model}" failed (${reason}); summaries are searched by keywords only.`,
        );
      }
      this.#failedAt = now();
      return undefined;
    }
  }
}
