/** SQLite facts with FTS5 keyword search. */
import { boundedPage, maxListOffset } from "../../core/bounds.ts";
import type { DatabaseSync } from "node:sqlite";
import type { Fact, FactArchive, FactCategory } from "../../core/ports.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf, type Row, selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

/** The columns of a fact, in its record's key order (its source conversation follows if any). */
const factColumns = columnsOf<Fact>()("id category content created_at updated_at");

/** The domain fact of a row. */
export function toFact(row: Row): Fact {
  const fact: Fact = camelRecord(row, factColumns);
  if (row.source_conversation_id !== null) {
    fact.sourceConversationId = row.source_conversation_id as number;
  }
  return fact;
}

/**
 * Turns free text (from a model or a person) into a safe FTS5 query: each word becomes a
 * quoted prefix term, joined with OR so any match counts and rank orders them.
 * Returns undefined when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 16);
  if (!unique.length) return undefined;
  return unique.map((word) => `"${word}"*`).join(" OR ");
}

/** Facts in SQLite; the FTS index is kept in sync by triggers. */
export class SqliteFactStore implements FactArchive {
  constructor(private readonly db: DatabaseSync) {}

  /** Stores a fact and returns its id. */
  addFact(...[fact, at]: Parameters<FactArchive["addFact"]>): number {
    const stamp = at.toISOString();
    return insert(
      this.db,
      "the fact",
      `INSERT INTO facts (category, content, source_conversation_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?)`,
      fact.category,
      fact.content,
      fact.sourceConversationId ?? null,
      stamp,
      stamp,
    );
  }

  /** Ranked keyword search; a query with nothing searchable returns nothing. */
  searchFacts(query: string, limit: number, category?: FactCategory): Fact[] {
    limit = boundedPage(limit).limit;
    const fts = toFtsQuery(query);
    if (!fts) return [];
    // Rank inside FTS5 first (its `rank` column is cheaper than bm25() over a join), then join.
    const rows = category
      ? statement(
        this.db,
        `SELECT f.* FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid
         WHERE facts_fts MATCH ? AND f.category = ? ORDER BY rank, f.id DESC LIMIT ?`,
      ).all(fts, category, limit) as Row[]
      : statement(
        this.db,
        `SELECT f.* FROM (SELECT rowid, rank FROM facts_fts WHERE facts_fts MATCH ?
           ORDER BY rank LIMIT ?) AS hit JOIN facts f ON f.id = hit.rowid
         ORDER BY hit.rank, f.id DESC`,
      ).all(fts, limit) as Row[];
    return rows.map(toFact);
  }

  /** Facts newest first, optionally of one category. */
  listFacts(options: { limit: number; offset?: number; category?: FactCategory }): Fact[] {
    if ((options.offset ?? 0) > maxListOffset) return [];
    const page = boundedPage(options.limit, options.offset);
    const rows = options.category
      ? statement(
        this.db,
        "SELECT * FROM facts WHERE category = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
      ).all(options.category, page.limit, page.offset)
      : statement(this.db, "SELECT * FROM facts ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
        .all(page.limit, page.offset);
    return (rows as Row[]).map(toFact);
  }

  /** One fact by id. */
  getFact(id: number): Fact | undefined {
    return selectOne(this.db, toFact, "SELECT * FROM facts WHERE id = ?", id);
  }

  /** Replaces a fact's content. */
  updateFact(id: number, content: string, at: Date): boolean {
    return write(
      this.db,
      "the fact",
      "UPDATE facts SET content = ?, updated_at = ? WHERE id = ?",
      content,
      at.toISOString(),
      id,
    ).changes > 0;
  }

  /** Deletes a fact. */
  forgetFact(id: number): boolean {
    return write(this.db, "the fact's removal", "DELETE FROM facts WHERE id = ?", id).changes > 0;
  }

  /** Number of stored facts. */
  countFacts(): number {
    return Number((statement(this.db, "SELECT COUNT(*) AS n FROM facts").get() as { n: number }).n);
  }
}
