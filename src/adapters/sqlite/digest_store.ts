/** SQLite rows of the digests, searchable by words (FTS5). */
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import type { DatabaseSync } from "node:sqlite";
import { write } from "./write.ts";
import { toFtsQuery } from "./fact_store.ts";
import type { Digest } from "../../core/source_ports.ts";
import type { DigestStore } from "../../sources/source_stores.ts";

/** The columns of a digest, in its record's key order. */
const digestColumns = columnsOf<Digest>()("id period starts_at ends_at content created_at");

/** A row → a digest. */
export function toDigest(row: Row): Digest {
  return camelRecord(row, digestColumns);
}

/** The digests' store. */
export class SqliteDigestStore implements DigestStore {
  constructor(private readonly db: DatabaseSync) {}

  /** The digest of `period` starting at `startsAt`, if written. */
  find(period: Digest["period"], startsAt: Date): Digest | undefined {
    const sql = "SELECT * FROM digests WHERE period = ? AND starts_at = ?";
    return selectOne(this.db, toDigest, sql, period, startsAt.toISOString());
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
    const sql = "SELECT * FROM digests ORDER BY starts_at DESC, id DESC LIMIT ?";
    return selectAll(this.db, toDigest, sql, limit);
  }

  /** Digests matching any of the words, best first. */
  search(text: string, limit: number): Digest[] {
    const query = toFtsQuery(text);
    if (!query) return [];
    const sql = `SELECT d.* FROM digests_fts JOIN digests d ON d.id = digests_fts.rowid
       WHERE digests_fts MATCH ? ORDER BY rank, d.id DESC LIMIT ?`;
    return selectAll(this.db, toDigest, sql, query, limit);
  }
}
