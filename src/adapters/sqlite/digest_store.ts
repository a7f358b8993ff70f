/** SQLite rows of the digests, searchable by words (FTS5). */
import { statement } from "./statements.ts";
import type { DatabaseSync } from "node:sqlite";
import { write } from "./write.ts";
import { toFtsQuery } from "./fact_store.ts";
import type { Digest } from "../../core/source_ports.ts";
import type { DigestStore } from "../../core/source_stores.ts";

/** A `digests` row as SQLite returns it. */
export interface DigestRow {
  id: number;
  period: "day" | "week";
  starts_at: string;
  ends_at: string;
  content: string;
  created_at: string;
}

/** A row → a digest. */
export function toDigest(row: DigestRow): Digest {
  return {
    id: Number(row.id),
    period: row.period,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    content: row.content,
    createdAt: row.created_at,
  };
}

/** The digests' store. */
export class SqliteDigestStore implements DigestStore {
  constructor(private readonly db: DatabaseSync) {}

  /** The digest of `period` starting at `startsAt`, if written. */
  find(period: Digest["period"], startsAt: Date): Digest | undefined {
    const row = statement(this.db, "SELECT * FROM digests WHERE period = ? AND starts_at = ?")
      .get(period, startsAt.toISOString()) as DigestRow | undefined;
    return row ? toDigest(row) : undefined;
  }

  /** Stores (or replaces) the digest of one period. */
  save(digest: Omit<Digest, "id">): void {
    write(
      this.db,
      "the digest",
      `INSERT INTO digests (period, starts_at, ends_at, content, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (period, starts_at) DO UPDATE SET ends_at = ?3, content = ?4, created_at = ?5`,
      digest.period,
      digest.startsAt,
      digest.endsAt,
      digest.content,
      digest.createdAt,
    );
  }

  /** Deletes a digest (its vectors go with it); false when there was none. */
  remove(id: number): boolean {
    return write(this.db, "the digest's removal", "DELETE FROM digests WHERE id = ?", id).changes >
      0;
  }

  /** Newest first. */
  list(limit: number): Digest[] {
    return (statement(this.db, "SELECT * FROM digests ORDER BY starts_at DESC, id DESC LIMIT ?")
      .all(limit) as unknown as DigestRow[]).map(toDigest);
  }

  /** Digests matching any of the words, best first. */
  search(text: string, limit: number): Digest[] {
    const query = toFtsQuery(text);
    if (!query) return [];
    return (statement(
      this.db,
      `SELECT d.* FROM digests_fts JOIN digests d ON d.id = digests_fts.rowid
       WHERE digests_fts MATCH ? ORDER BY rank, d.id DESC LIMIT ?`,
    ).all(query, limit) as unknown as DigestRow[]).map(toDigest);
  }
}
