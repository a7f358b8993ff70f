/**
 * One memory search over tagged sources (facts, conversation summaries, digests…): each source's
 * keyword ranking and, with an embedding model, its nearest vectors are fused by one
 * reciprocal-rank fusion. A hit keeps its source's kind and own id. Items are embedded lazily (a
 * bounded batch per source and search, in the query's one embedding call); while the embedding
 * server fails this is keywords only, with one warning per failure streak and a retry later.
 *
 * The sources `recall` searches: remembered facts, conversation summaries
 * and daily/weekly digests, each tagged with its kind. Summaries and digests are long: two of each
 * at most, each cut to an excerpt.
 */
import type { EmbeddingModel, EmbeddingWithBackoff } from "./embedding_model.ts";
import { type MemoryHit, memoryHitKey } from "./hooks.ts";
import { fusionK } from "./tool_relevance.ts";
import type { Fact, FactStore } from "./ports.ts";
import type { Digest, DigestArchive } from "./source_ports.ts";
import { summaryLabel, type SummaryRecord, type SummaryStore } from "./conversation_summary.ts";

/** A recall hit: its source's kind, the id within that source, its label and text. */
export interface RecallHit extends MemoryHit {
  kind: string;
}

/** Port: one source's stored vectors (SQLite in production), `T` its records. */
export interface RecallVectors<T> {
  /** True when the source holds nothing (then the query is not embedded for it). */
  empty?(): boolean;
  /** Items without a current vector of `model`, oldest first. */
  pending(model: string, limit: number): Array<{ id: number; text: string; version: string }>;
  put(id: number, model: string, version: string, vector: number[]): void;
  /** The items nearest to `vector` by cosine similarity, best first. */
  nearest(model: string, vector: number[], limit: number): Array<{ item: T; similarity: number }>;
}

/** One thing recall searches: a kind tag, a keyword search and optionally vectors. */
export interface RecallSource {
  readonly kind: string;
  /** Hits of this kind one recall keeps at most (default: the recall's limit). */
  readonly cap?: number;
  /** Keyword matches, best first. */
  keyword(query: string, limit: number): readonly RecallHit[];
  /** Stored vectors (absent: keywords only). */
  readonly vectors?: RecallVectors<RecallHit>;
  /** Items embedded per search at most (default 64). */
  readonly batchSize?: number;
  /** Hits less similar than this are never found by meaning alone (default: none). */
  readonly minimumSimilarity?: number;
}

/** Port the recall tool uses: the best memories for a query. */
export interface MemorySearch {
  search(query: string, limit: number, signal?: AbortSignal): Promise<readonly MemoryHit[]>;
}

/**
 * Neighbours further than this below the best one are left out: every item has a nearest
 * neighbour, and a small model should not read unrelated ones as answers.
 */
const similarityMargin = 0.15;

/**
 * Fuses best-first rankings by reciprocal rank (ties: earlier rankings first), then keeps `limit`
 * hits with at most `caps[kind]` of each kind.
 */
function fuseRankings(
  rankings: ReadonlyArray<readonly RecallHit[]>,
  limit: number,
  caps: ReadonlyMap<string, number>,
): RecallHit[] {
  const scores = new Map<string, { hit: RecallHit; score: number; order: number }>();
  rankings.forEach((ranking, order) =>
    ranking.forEach((hit, rank) => {
      const key = memoryHitKey(hit);
      const entry = scores.get(key) ?? { hit, score: 0, order };
      entry.score += 1 / (fusionK + rank);
      scores.set(key, entry);
    })
  );
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score || a.order - b.order);
  const taken = new Map<string, number>();
  const kept: RecallHit[] = [];
  for (const { hit } of ranked) {
    if (kept.length >= limit) break;
    const count = taken.get(hit.kind) ?? 0;
    if (count >= (caps.get(hit.kind) ?? limit)) continue;
    taken.set(hit.kind, count + 1);
    kept.push(hit);
  }
  return kept;
}

/** Every source by keywords, and by meaning while the embedding model answers, fused. */
export class Recall implements MemorySearch {
  readonly #sources: readonly RecallSource[];
  readonly #embedding: EmbeddingWithBackoff | undefined;
  #failedAt: number | undefined;

  constructor(sources: readonly RecallSource[], embedding?: EmbeddingWithBackoff) {
    this.#sources = sources;
    this.#embedding = embedding;
  }

  /** The best `limit` hits over all sources. */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<RecallHit[]> {
    const near = await this.#nearest(query, limit, signal);
    const rankings = this.#sources.flatMap((source) => [
      source.keyword(query, 2 * (source.cap ?? limit)),
      near?.get(source) ?? [],
    ]);
    const caps = new Map(this.#sources.map((source) => [source.kind, source.cap ?? limit]));
    return fuseRankings(rankings, limit, caps);
  }

  /**
   * Embeds what the sources hold without a current vector (a digest just written), in one call;
   * no call when nothing is pending or while the server is failing (same warning streak as a
   * search). Returns how many items were embedded.
   */
  async embedPending(signal?: AbortSignal): Promise<number> {
    return (await this.#embed(undefined, signal))?.embedded ?? 0;
  }

  /** Each embedded source's nearest hits, or undefined (no model, or it is failing). */
  async #nearest(
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<Map<RecallSource, RecallHit[]> | undefined> {
    const done = await this.#embed(query, signal);
    if (!done?.query) return undefined;
    const { sources, query: vector } = done;
    const model = this.#embedding!.model;
    return new Map(sources.map((source) => [source, similar(source, vector, model, limit)]));
  }

  /**
   * Embeds `query` (when given) with each source's pending batch in one call and stores the
   * batch's vectors; undefined without a model, while it is failing, or when it fails now.
   */
  async #embed(
    query: string | undefined,
    signal?: AbortSignal,
  ): Promise<{ sources: RecallSource[]; query?: number[]; embedded: number } | undefined> {
    const embedding = this.#embedding;
    if (!embedding) return undefined;
    const { model, now } = embedding;
    const retryAfter = embedding.retryAfterMs ?? 600_000;
    if (this.#failedAt !== undefined && now() - this.#failedAt < retryAfter) return undefined;
    const sources = this.#sources.filter((source) => source.vectors && !source.vectors.empty?.());
    if (!sources.length) return undefined;
    try {
      const batches = sources.map((source) =>
        source.vectors!.pending(model.model, source.batchSize ?? 64)
      );
      const items = batches.flat();
      const texts = [...(query === undefined ? [] : [query]), ...items.map((item) => item.text)];
      if (!texts.length) return { sources, embedded: 0 };
      const embedded = await model.embed(texts, signal);
      if (embedded.length !== texts.length) {
        throw new Error(`expected ${texts.length} vectors, got ${embedded.length}`);
      }
      let next = query === undefined ? 0 : 1;
      sources.forEach((source, index) =>
        batches[index].forEach((item) =>
          source.vectors!.put(item.id, model.model, item.version, embedded[next++])
        )
      );
      this.#failedAt = undefined;
      return {
        sources,
        query: query === undefined ? undefined : embedded[0],
        embedded: items.length,
      };
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (this.#failedAt === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        embedding.warn(
          `Embedding model "${model.model}" failed (${reason}); memory search uses keywords only.`,
        );
      }
      this.#failedAt = now();
      return undefined;
    }
  }
}

/** A source's nearest hits within the similarity margin of the best one. */
function similar(
  source: RecallSource,
  query: number[],
  model: EmbeddingModel,
  limit: number,
): RecallHit[] {
  const near = source.vectors!.nearest(model.model, query, 2 * (source.cap ?? limit));
  const floor = Math.max(
    source.minimumSimilarity ?? -Infinity,
    (near[0]?.similarity ?? 0) - similarityMargin,
  );
  return near.filter((entry) => entry.similarity >= floor).map((entry) => entry.item);
}

/** Characters of one summary or digest a recall shows (a digest can be 4,000). */
export const excerptChars = 600;

/** Summaries or digests one recall returns at most (they are longer than facts). */
const longHitCap = 2;

/** Summaries or digests less similar than this are never shown by meaning alone (each has a nearest). */
const longHitMinimumSimilarity = 0.3;

/** Port: digests matching a query, best first (SQLite FTS5 in production). */
export type DigestSearch = Pick<DigestArchive, "search">;

/** Remembered facts: FTS5, and their vectors when given. */
export function factSource(
  facts: Pick<FactStore, "searchFacts">,
  options: { vectors?: RecallVectors<Fact>; batchSize?: number } = {},
): RecallSource {
  const hit = (fact: Fact): RecallHit => ({
    kind: "fact",
    id: fact.id,
    category: fact.category,
    content: fact.content,
  });
  return {
    kind: "fact",
    keyword: (query, limit) => facts.searchFacts(query, limit).map(hit),
    vectors: options.vectors && asHits(options.vectors, hit),
    batchSize: options.batchSize,
  };
}

/** Conversation summaries, labelled with their conversation's title and date. */
export function summarySource(
  summaries: Pick<SummaryStore, "search">,
  vectors?: RecallVectors<SummaryRecord>,
): RecallSource {
  const hit = (summary: SummaryRecord) => ({
    id: summary.conversationId,
    category: summaryLabel(summary),
    content: excerpt(summary.content),
  });
  return longSource("summary", hit, summaries, vectors, 32);
}

/**
 * Daily/weekly digests, labelled `digest day 2026-11-23`: by keywords, and by meaning when their
 * vectors are given (a digest is up to 4,000 characters: 8 embedded per search at most).
 */
export function digestSource(digests: DigestSearch, vectors?: RecallVectors<Digest>): RecallSource {
  const hit = (digest: Digest) => ({
    id: digest.id,
    category: `digest ${digest.period} ${digest.startsAt.slice(0, 10)}`,
    content: excerpt(digest.content),
  });
  return longSource("digest", hit, digests, vectors, 8);
}

/** A source of long records (summaries, digests, shown as excerpts): `longHitCap` hits at most. */
function longSource<T>(
  kind: string,
  describe: (item: T) => Omit<RecallHit, "kind">,
  records: { search(query: string, limit: number): T[] },
  vectors: RecallVectors<T> | undefined,
  batchSize: number,
): RecallSource {
  const hit = (item: T): RecallHit => ({ kind, ...describe(item) });
  return {
    kind,
    cap: longHitCap,
    keyword: (query, limit) => records.search(query, limit).map(hit),
    vectors: vectors && asHits(vectors, hit),
    batchSize,
    minimumSimilarity: longHitMinimumSimilarity,
  };
}

function excerpt(text: string): string {
  return text.length > excerptChars ? `${text.slice(0, excerptChars)}…` : text;
}

/** A source's vectors with their records turned into hits. */
function asHits<T>(
  vectors: RecallVectors<T>,
  hit: (item: T) => RecallHit,
): RecallVectors<RecallHit> {
  return {
    empty: vectors.empty && (() => vectors.empty!()),
    pending: (model, limit) => vectors.pending(model, limit),
    put: (id, model, version, vector) => vectors.put(id, model, version, vector),
    nearest: (model, vector, limit) =>
      vectors.nearest(model, vector, limit).map(({ item, similarity }) => ({
        item: hit(item),
        similarity,
      })),
  };
}
