/**
 * The outbox: side effects recorded under a key before they happen, marked sent (or failed)
 * after, with what they sent and the service's answer.
 */
import type { DatabaseSync } from "node:sqlite";
import { Secrets } from "../../core/secrets.ts";
import type { SideEffectRecord, SideEffectResult } from "../../core/side_effects.ts";
import type { Outbox, OutboxEntry, OutboxState } from "../../core/work_ports.ts";
import { statement } from "./statements.ts";
import { insertUnlessPresent, write } from "./write.ts";

interface OutboxRow {
  key: string;
  kind: string;
  summary: string;
  state: string;
  created_at: string;
  sent_at: string | null;
  finished_at: string | null;
  attempts: number;
  pid: number;
  topic: string | null;
  title: string | null;
  body: string | null;
  priority: string | null;
  status: number | null;
  error: string | null;
}

/** Characters kept of a summary, a title and an error; of a body. */
const lineChars = 500;
const bodyChars = 4000;

/** The `outbox` table; text is masked with the secrets known when it is written. */
export class SqliteOutbox implements Outbox {
  constructor(
    private readonly db: DatabaseSync,
    private readonly secrets: Secrets = new Secrets(),
  ) {}

  /** Records `key` unless it exists (a failed one is claimed again); undefined when claimed now. */
  claim(
    entry: { key: string; kind: string; summary: string; at: Date; pid: number } & SideEffectRecord,
  ): OutboxEntry | undefined {
    const values = [
      this.#masked(entry.summary, lineChars),
      entry.at.toISOString(),
      entry.pid,
      entry.topic ?? null,
      this.#masked(entry.title, lineChars),
      this.#masked(entry.body, bodyChars),
      entry.priority ?? null,
    ];
    const inserted = insertUnlessPresent(
      this.db,
      "the side-effect record",
      `INSERT OR IGNORE INTO outbox (key, kind, state, summary, created_at, pid, topic, title, body,
         priority) VALUES (?, ?, 'claimed', ?, ?, ?, ?, ?, ?, ?)`,
      entry.key,
      entry.kind,
      ...values,
    );
    if (inserted !== undefined) return undefined;
    const retried = write(
      this.db,
      "the side-effect record",
      `UPDATE outbox SET state = 'claimed', attempts = attempts + 1, summary = ?, created_at = ?,
         pid = ?, topic = ?, title = ?, body = ?, priority = ?, status = NULL, error = NULL,
         finished_at = NULL
       WHERE key = ? AND state = 'failed'`,
      ...values,
      entry.key,
    ).changes > 0;
    return retried ? undefined : this.get(entry.key);
  }

  /** Marks an entry sent. */
  markSent(key: string, at: Date, result: SideEffectResult = {}): void {
    write(
      this.db,
      "the side-effect record",
      `UPDATE outbox SET state = 'sent', sent_at = ?1, finished_at = ?1, status = ?2, error = NULL
       WHERE key = ?3`,
      at.toISOString(),
      result.status ?? null,
      key,
    );
  }

  /** Records that an action certainly did not happen (so a retry may claim its key again). */
  markFailed(key: string, at: Date, result: SideEffectResult = {}): void {
    write(
      this.db,
      "the side-effect record",
      `UPDATE outbox SET state = 'failed', finished_at = ?, status = ?, error = ?
       WHERE key = ? AND sent_at IS NULL`,
      at.toISOString(),
      result.status ?? null,
      this.#masked(result.error, lineChars),
      key,
    );
  }

  /** One entry. */
  get(key: string): OutboxEntry | undefined {
    const row = statement(this.db, "SELECT * FROM outbox WHERE key = ?").get(key) as
      | OutboxRow
      | undefined;
    return row && toEntry(row);
  }

  /** The newest entries (of `kind`), newest first. */
  recent(limit: number, kind?: string): OutboxEntry[] {
    const rows = kind === undefined
      ? statement(this.db, "SELECT * FROM outbox ORDER BY created_at DESC, rowid DESC LIMIT ?")
        .all(limit)
      : statement(
        this.db,
        "SELECT * FROM outbox WHERE kind = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
      ).all(kind, limit);
    return (rows as unknown as OutboxRow[]).map(toEntry);
  }

  /** The entries whose key starts with `scope:`, oldest first. */
  inScope(scope: string): OutboxEntry[] {
    // A key range instead of LIKE: a scope may hold % or _, and the range uses the primary key.
    return (statement(
      this.db,
      "SELECT * FROM outbox WHERE key >= ? AND key < ? ORDER BY created_at, rowid LIMIT 100",
    ).all(`${scope}:`, `${scope};`) as unknown as OutboxRow[]).map(toEntry);
  }

  /** Failed entries of `kind`, oldest first. */
  failed(kind: string, limit: number): OutboxEntry[] {
    return (statement(
      this.db,
      "SELECT * FROM outbox WHERE kind = ? AND state = 'failed' ORDER BY finished_at LIMIT ?",
    ).all(kind, limit) as unknown as OutboxRow[]).map(toEntry);
  }

  /** Stops retrying a failed entry. */
  markUndeliverable(key: string, at: Date): void {
    write(
      this.db,
      "the side-effect record",
      "UPDATE outbox SET state = 'undeliverable', finished_at = ? WHERE key = ? AND state = 'failed'",
      at.toISOString(),
      key,
    );
  }

  /** Undeliverable entries of `kind` since `since`. */
  undeliverable(kind: string, since: Date): { count: number; latest?: OutboxEntry } {
    const rows = statement(
      this.db,
      `SELECT * FROM outbox WHERE kind = ? AND state = 'undeliverable' AND finished_at >= ?
       ORDER BY finished_at DESC`,
    ).all(kind, since.toISOString()) as unknown as OutboxRow[];
    return { count: rows.length, latest: rows[0] && toEntry(rows[0]) };
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

  #masked(text: string | undefined, chars: number): string | null {
    return text === undefined ? null : this.secrets.mask(text).slice(0, chars);
  }
}

function toEntry(row: OutboxRow): OutboxEntry {
  const optional = <T>(value: T | null) => value ?? undefined;
  return {
    key: row.key,
    kind: row.kind,
    summary: row.summary,
    state: row.state as OutboxState,
    createdAt: row.created_at,
    sentAt: optional(row.sent_at),
    finishedAt: optional(row.finished_at),
    attempts: Number(row.attempts),
    pid: Number(row.pid),
    topic: optional(row.topic),
    title: optional(row.title),
    body: optional(row.body),
    priority: optional(row.priority),
    status: row.status === null ? undefined : Number(row.status),
    error: optional(row.error),
  };
}
