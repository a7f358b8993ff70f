/** The outbox: side effects recorded under a key before they happen, marked sent after. */
import type { DatabaseSync } from "node:sqlite";
import type { Outbox, OutboxEntry } from "../../core/work_ports.ts";
import { statement } from "./statements.ts";

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
    const inserted = Number(
      statement(
        this.db,
        "INSERT OR IGNORE INTO outbox (key, kind, summary, created_at, pid) VALUES (?, ?, ?, ?, ?)",
      ).run(entry.key, entry.kind, entry.summary.slice(0, 500), entry.at.toISOString(), entry.pid)
        .changes,
    );
    if (inserted) return undefined;
    return this.get(entry.key);
  }

  /** Marks an entry sent. */
  markSent(key: string, at: Date): void {
    statement(this.db, "UPDATE outbox SET sent_at = ? WHERE key = ?").run(at.toISOString(), key);
  }

  /** Removes an entry whose action certainly did not happen (so a retry may do it). */
  release(key: string): void {
    statement(this.db, "DELETE FROM outbox WHERE key = ? AND sent_at IS NULL").run(key);
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
    return Number(
      statement(this.db, "DELETE FROM outbox WHERE created_at < ?").run(before.toISOString())
        .changes,
    );
  }
}
