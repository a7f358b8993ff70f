/**
 * The sources `recall` searches (src/core/recall.ts): remembered facts, conversation summaries
 * and daily/weekly digests, each tagged with its kind. Summaries and digests are long: two of each
 * at most, each cut to an excerpt.
 */
import type { Fact, FactStore } from "./ports.ts";
import type { Digest, DigestArchive } from "./source_ports.ts";
import { summaryLabel, type SummaryRecord, type SummaryStore } from "./conversation_summary.ts";
import type { RecallHit, RecallSource, RecallVectors } from "./recall.ts";

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
