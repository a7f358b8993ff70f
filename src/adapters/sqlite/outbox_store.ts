/**
 * The outbox: side effects recorded under a key before they happen, marked sent (or failed)
 * after, with what they sent and the service's answer.
 */
import type { DatabaseSync } from "node:sqlite";
import { Secrets } from "../../core/secrets.ts";
import type { SideEffectResult } from "../../core/side_effects.ts";
import type { Outbox, OutboxEntry } from "../../core/work_ports.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { deleteBefore, insertUnlessPresent, write } from "./write.ts";

/** The columns of an entry, in its record's key order. */
const entryColumns = columnsOf<OutboxEntry>()(
  `key kind summary state created_at sent_at finished_at attempts pid topic title body priority
   status error`,
);

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
  claim(...[entry]: Parameters<Outbox["claim"]>): OutboxEntry | undefined {
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
    return selectOne(this.db, toEntry, "SELECT * FROM outbox WHERE key = ?", key);
  }

  /** The newest entries (of `kind`), newest first. */
  recent(limit: number, kind?: string): OutboxEntry[] {
    const order = "ORDER BY created_at DESC, rowid DESC LIMIT ?";
    return kind === undefined
      ? selectAll(this.db, toEntry, `SELECT * FROM outbox ${order}`, limit)
      : selectAll(this.db, toEntry, `SELECT * FROM outbox WHERE kind = ? ${order}`, kind, limit);
  }

  /** The entries whose key starts with `scope:`, oldest first. */
  inScope(scope: string): OutboxEntry[] {
    // A key range instead of LIKE: a scope may hold % or _, and the range uses the primary key.
    const sql = `SELECT * FROM outbox WHERE key >= ? AND key < ?
      ORDER BY created_at, rowid LIMIT 100`;
    return selectAll(this.db, toEntry, sql, `${scope}:`, `${scope};`);
  }

  /** Failed entries of `kind`, oldest first. */
  failed(kind: string, limit: number): OutboxEntry[] {
    const sql = `SELECT * FROM outbox WHERE kind = ? AND state = 'failed'
      ORDER BY finished_at LIMIT ?`;
    return selectAll(this.db, toEntry, sql, kind, limit);
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
    const sql =
      `SELECT * FROM outbox WHERE kind = ? AND state = 'undeliverable' AND finished_at >= ?
       ORDER BY finished_at DESC`;
    const entries = selectAll(this.db, toEntry, sql, kind, since.toISOString());
    return { count: entries.length, latest: entries[0] };
  }

  /** Deletes entries older than `before` (their runs are long settled). */
  prune(before: Date): number {
    return deleteBefore(
      this.db,
      "the outbox cleanup",
      "DELETE FROM outbox WHERE created_at < ?",
      before,
    );
  }

  #masked(text: string | undefined, chars: number): string | null {
    return text === undefined ? null : this.secrets.mask(text).slice(0, chars);
  }
}

function toEntry(row: Row): OutboxEntry {
  return camelRecord(row, entryColumns);
}
