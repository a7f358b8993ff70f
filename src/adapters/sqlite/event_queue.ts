/** The persistent event queue: watchers and monitors add events, heartbeats consume them. */
import type { DatabaseSync } from "node:sqlite";
import type { EventQueue, NewEvent } from "../../core/work_ports.ts";
import type { PendingEvent } from "../../core/heartbeat.ts";
import { statement } from "./statements.ts";
import { camelRecord, columnsOf, type Row, selectAll } from "./rows.ts";
import { deleteBefore, insertUnlessPresent, write } from "./write.ts";

/** The columns of an event, in its record's key order (its detail follows when there is one). */
const eventColumns = columnsOf<PendingEvent>()("id source kind summary urgent created_at");

function toEvent(row: Row): PendingEvent {
  const event: PendingEvent = { ...camelRecord(row, eventColumns), urgent: row.urgent === 1 };
  if (row.detail) event.detail = row.detail as string;
  return event;
}

/** Limits that keep a hostile or noisy source from bloating the queue. */
const maxSummaryChars = 500;
const maxDetailChars = 4000;

/** SQLite-backed queue of pending events. */
export class SqliteEventQueue implements EventQueue {
  constructor(private readonly db: DatabaseSync) {}

  /** Adds an event; returns its id, or undefined when a pending duplicate exists. */
  enqueue(event: NewEvent, at: Date): number | undefined {
    return insertUnlessPresent(
      this.db,
      "the event",
      `INSERT OR IGNORE INTO events (source, kind, summary, detail, urgent, dedupe_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      event.source.slice(0, 200),
      event.kind.slice(0, 100),
      event.summary.slice(0, maxSummaryChars),
      (event.detail ?? "").slice(0, maxDetailChars),
      event.urgent ? 1 : 0,
      event.dedupeKey ?? null,
      at.toISOString(),
    );
  }

  /** The oldest `limit` pending events. */
  pending(limit: number): PendingEvent[] {
    const sql = "SELECT * FROM events WHERE consumed_at IS NULL ORDER BY id LIMIT ?";
    return selectAll(this.db, toEvent, sql, limit);
  }

  /** How many events are pending. */
  pendingCount(): number {
    const row = statement(this.db, "SELECT COUNT(*) AS n FROM events WHERE consumed_at IS NULL")
      .get() as { n: number };
    return Number(row.n);
  }

  /** Marks events consumed by a run (call inside the transaction that stores the run). */
  markConsumed(ids: readonly number[], runId: number, at: Date): void {
    for (const id of ids) {
      write(
        this.db,
        "the consumed event",
        "UPDATE events SET consumed_at = ?, consumed_by_run = ? WHERE id = ? AND consumed_at IS NULL",
        at.toISOString(),
        runId,
        id,
      );
    }
  }

  /** Counts a blocked heartbeat against pending events; sets aside those blocked `limit` times. */
  markBlocked(...[ids, runId, reason, at, limit]: Parameters<EventQueue["markBlocked"]>): number {
    let setAside = 0;
    for (const id of ids) {
      write(
        this.db,
        "the blocked event",
        "UPDATE events SET blocked_count = blocked_count + 1 WHERE id = ? AND consumed_at IS NULL",
        id,
      );
      setAside += write(
        this.db,
        "the blocked event",
        `UPDATE events SET consumed_at = ?, consumed_by_run = ?, blocked_reason = ?
         WHERE id = ? AND consumed_at IS NULL AND blocked_count >= ?`,
        at.toISOString(),
        runId,
        reason.slice(0, maxSummaryChars),
        id,
        limit,
      ).changes;
    }
    return setAside;
  }

  /** Events set aside by blocked heartbeats (kept until the consumed-event retention ends). */
  setAside(): { count: number; lastReason?: string } {
    const row = statement(
      this.db,
      `SELECT COUNT(*) AS n, (SELECT blocked_reason FROM events WHERE blocked_reason IS NOT NULL
         ORDER BY id DESC LIMIT 1) AS reason
       FROM events WHERE blocked_reason IS NOT NULL`,
    ).get() as { n: number; reason: string | null };
    return { count: Number(row.n), lastReason: row.reason ?? undefined };
  }

  /** The newest `limit` set-aside events (the dashboard lists them). */
  setAsideEvents(limit: number): PendingEvent[] {
    const sql = "SELECT * FROM events WHERE blocked_reason IS NOT NULL ORDER BY id DESC LIMIT ?";
    return selectAll(this.db, toEvent, sql, limit);
  }

  /** Puts every set-aside event back in the queue, its blocked count reset; returns how many. */
  requeueSetAside(): number {
    return write(
      this.db,
      "the set-aside events",
      `UPDATE events SET consumed_at = NULL, consumed_by_run = NULL, blocked_reason = NULL,
         blocked_count = 0
       WHERE blocked_reason IS NOT NULL`,
    ).changes;
  }

  /** Deletes consumed events older than `before`; returns how many. */
  pruneConsumed(before: Date): number {
    return deleteBefore(
      this.db,
      "the event cleanup",
      "DELETE FROM events WHERE consumed_at IS NOT NULL AND consumed_at < ?",
      before,
    );
  }
}
