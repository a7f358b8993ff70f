/** The outbox: side effects recorded under a key before they happen, marked sent after. */
import type { DatabaseSync } from "node:sqlite";
import type { Outbox, OutboxEntry } from "../../core/work_ports.ts";
import { statement } from "./statements.ts";
import { insertUnlessPresent, write } from "./write.ts";

interface OutboxRow {
  key: string;
  kind: string;
  summary: string;
  created_at: string;
  sent_at: string | null;
  pid: number;
}

/** The `outbox` table. */
export class SqliteOutbox implements Outbox {
  constructor(private readonly db: DatabaseSync) {}

  /** Records `key` unless it exists; returns the existing entry, or undefined when recorded now. */
  claim(
    entry: { key: string; kind: string; summary: string; at: Date; pid: number },
  ): OutboxEntry | undefined {
    const inserted = insertUnlessPresent(
      this.db,
      "the side-effect record",
      "INSERT OR IGNORE INTO outbox (key, kind, summary, created_at, pid) VALUES (?, ?, ?, ?, ?)",
      entry.key,
      entry.kind,
      entry.summary.slice(0, 500),
      entry.at.toISOString(),
      entry.pid,
    );
    if (inserted !== undefined) return undefined;
    return this.get(entry.key);
  }

  /** Marks an entry sent. */
  markSent(key: string, at: Date): void {
    write(
      this.db,
      "the side-effect record",
      "UPDATE outbox SET sent_at = ? WHERE key = ?",
      at.toISOString(),
      key,
    );
  }

  /** Removes an entry whose action certainly did not happen (so a retry may do it). */
  release(key: string): void {
    write(
      this.db,
      "the side-effect record",
      "DELETE FROM outbox WHERE key = ? AND sent_at IS NULL",
      key,
    );
  }

  /** One entry. */
  get(key: string): OutboxEntry | undefined {
    const row = statement(this.db, "SELECT * FROM outbox WHERE key = ?").get(key) as
      | OutboxRow
      | undefined;
    if (!row) return undefined;
    return {
      key: row.key,
      kind: row.kind,
      summary: row.summary,
      createdAt: row.created_at,
      sentAt: row.sent_at ?? undefined,
      pid: Number(row.pid),
    };
  }

  /** Entries of `kind` (newest first), for tests and status. */
  recent(limit: number): OutboxEntry[] {
    const keys = statement(this.db, "SELECT key FROM outbox ORDER BY created_at DESC, key LIMIT ?")
      .all(limit) as Array<{ key: string }>;
    return keys.map((row) => this.get(row.key)!);
  }

  /** Deletes entries older than `before` (their runs are long settled). */
  prune(before: Date): number {
    return write(
      this.db,
      "the outbox cleanup",
      "DELETE FROM outbox WHERE created_at < ?",
      before.toISOString(),
    ).changes;
  }
}
