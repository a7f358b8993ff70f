/** Delivery receipts in SQLite: notifications (with their exact body, to retry) and task firings. */
import type { DatabaseSync } from "node:sqlite";
import type {
  DeliveryAttempt,
  DeliveryState,
  FiringState,
  NewNotificationReceipt,
  NotificationReceipt,
  NotificationReceipts,
  TaskFiring,
  TaskFirings,
} from "../../core/receipts.ts";
import { statement } from "./statements.ts";
import { insert, write } from "./write.ts";

interface ReceiptRow {
  id: number;
  key: string | null;
  conversation_id: number | null;
  task_id: number | null;
  approval_id: number | null;
  title: string;
  message: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  http_status: number | null;
  last_error: string | null;
  fired_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

const optionalNumber = (value: number | null) => value === null ? undefined : Number(value);

function toReceipt(row: ReceiptRow): NotificationReceipt {
  return {
    id: Number(row.id),
    key: row.key ?? undefined,
    conversationId: optionalNumber(row.conversation_id),
    taskId: optionalNumber(row.task_id),
    approvalId: optionalNumber(row.approval_id),
    title: row.title,
    message: row.message,
    payload: row.payload,
    state: row.state,
    attempts: Number(row.attempts),
    httpStatus: optionalNumber(row.http_status),
    lastError: row.last_error ?? undefined,
    firedAt: row.fired_at,
    deliveredAt: row.delivered_at ?? undefined,
    nextAttemptAt: row.next_attempt_at ?? undefined,
  };
}

/** The `notification_receipts` table. */
export class SqliteNotificationReceipts implements NotificationReceipts {
  constructor(private readonly db: DatabaseSync) {}

  /** Records a notification about to go out. */
  fire(receipt: NewNotificationReceipt, at: Date): number {
    return insert(
      this.db,
      "the notification receipt",
      `INSERT INTO notification_receipts (key, conversation_id, task_id, approval_id, title, message,
         payload, state, fired_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'fired', ?)`,
      receipt.key ?? null,
      receipt.conversationId ?? null,
      receipt.taskId ?? null,
      receipt.approvalId ?? null,
      receipt.title.slice(0, 200),
      receipt.message.slice(0, 4000),
      receipt.payload,
      at.toISOString(),
    );
  }

  /** Records one attempt: delivered, retrying at `retryAt`, or undeliverable. */
  attempt(id: number, attempt: DeliveryAttempt, at: Date, retryAt?: Date): void {
    if (attempt.ok) {
      write(
        this.db,
        "the notification receipt",
        `UPDATE notification_receipts SET state = 'delivered', attempts = attempts + 1,
           http_status = ?, delivered_at = ?, next_attempt_at = NULL WHERE id = ?`,
        attempt.status,
        at.toISOString(),
        id,
      );
      return;
    }
    write(
      this.db,
      "the notification receipt",
      `UPDATE notification_receipts SET state = ?, attempts = attempts + 1, http_status = ?,
         last_error = ?, next_attempt_at = ? WHERE id = ?`,
      retryAt ? "retrying" : "undeliverable",
      attempt.status ?? null,
      attempt.error.slice(0, 500),
      retryAt?.toISOString() ?? null,
      id,
    );
  }

  /** One receipt. */
  get(id: number): NotificationReceipt | undefined {
    const row = statement(this.db, "SELECT * FROM notification_receipts WHERE id = ?").get(id) as
      | ReceiptRow
      | undefined;
    return row ? toReceipt(row) : undefined;
  }

  /** Newest first. */
  recent(
    limit: number,
    filter: { conversationIds?: readonly number[] } = {},
  ): NotificationReceipt[] {
    const ids = filter.conversationIds;
    if (ids && !ids.length) return [];
    const where = ids ? `WHERE conversation_id IN (${ids.map(() => "?").join(", ")})` : "";
    return (statement(
      this.db,
      `SELECT * FROM notification_receipts ${where} ORDER BY id DESC LIMIT ?`,
    ).all(...(ids ?? []), limit) as unknown as ReceiptRow[]).map(toReceipt);
  }

  /** Receipts whose next try is due at `at`. */
  dueRetries(at: Date, limit: number): NotificationReceipt[] {
    return (statement(
      this.db,
      `SELECT * FROM notification_receipts WHERE state = 'retrying' AND next_attempt_at <= ?
       ORDER BY next_attempt_at LIMIT ?`,
    ).all(at.toISOString(), limit) as unknown as ReceiptRow[]).map(toReceipt);
  }

  /** Undeliverable notifications fired since `since`. */
  undeliverable(since: Date): { count: number; latest?: NotificationReceipt } {
    const rows = statement(
      this.db,
      `SELECT * FROM notification_receipts WHERE state = 'undeliverable' AND fired_at >= ?
       ORDER BY id DESC`,
    ).all(since.toISOString()) as unknown as ReceiptRow[];
    return { count: rows.length, latest: rows[0] && toReceipt(rows[0]) };
  }

  /** Deletes receipts fired before `before` (never one still retrying). */
  prune(before: Date): number {
    return write(
      this.db,
      "the receipts cleanup",
      "DELETE FROM notification_receipts WHERE fired_at < ? AND state <> 'retrying'",
      before.toISOString(),
    ).changes;
  }
}

interface FiringRow {
  id: number;
  task_id: number;
  due_at: string;
  fired_at: string;
  state: FiringState;
  caught_up: number;
  retried: number;
  run_id: number | null;
  conversation_id: number | null;
  note: string | null;
}

function toFiring(row: FiringRow): TaskFiring {
  return {
    id: Number(row.id),
    taskId: Number(row.task_id),
    dueAt: row.due_at,
    firedAt: row.fired_at,
    state: row.state,
    caughtUp: Boolean(row.caught_up),
    retried: Boolean(row.retried),
    runId: optionalNumber(row.run_id),
    conversationId: optionalNumber(row.conversation_id),
    note: row.note ?? undefined,
  };
}

/** The `task_firings` table. */
export class SqliteTaskFirings implements TaskFirings {
  constructor(private readonly db: DatabaseSync) {}

  /** Records a firing (state `fired` unless given). */
  fire(
    firing: Omit<TaskFiring, "id" | "state" | "firedAt"> & { state?: FiringState },
    at: Date,
  ): number {
    return insert(
      this.db,
      "the task firing",
      `INSERT INTO task_firings (task_id, due_at, fired_at, state, caught_up, retried, run_id,
         conversation_id, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      firing.taskId,
      firing.dueAt,
      at.toISOString(),
      firing.state ?? "fired",
      firing.caughtUp ? 1 : 0,
      firing.retried ? 1 : 0,
      firing.runId ?? null,
      firing.conversationId ?? null,
      firing.note ?? null,
    );
  }

  /** Records how a firing ended. */
  finish(
    id: number,
    finish: { state: FiringState; runId?: number; conversationId?: number; note?: string },
  ): void {
    write(
      this.db,
      "the task firing",
      `UPDATE task_firings SET state = ?, run_id = COALESCE(?, run_id),
         conversation_id = COALESCE(?, conversation_id), note = COALESCE(?, note) WHERE id = ?`,
      finish.state,
      finish.runId ?? null,
      finish.conversationId ?? null,
      finish.note ?? null,
      id,
    );
  }

  /** Newest first. */
  recent(limit: number, taskId?: number): TaskFiring[] {
    const rows = taskId === undefined
      ? statement(this.db, "SELECT * FROM task_firings ORDER BY id DESC LIMIT ?").all(limit)
      : statement(this.db, "SELECT * FROM task_firings WHERE task_id = ? ORDER BY id DESC LIMIT ?")
        .all(taskId, limit);
    return (rows as unknown as FiringRow[]).map(toFiring);
  }

  /** Deletes firings before `before`. */
  prune(before: Date): number {
    return write(
      this.db,
      "the task firings cleanup",
      "DELETE FROM task_firings WHERE fired_at < ?",
      before.toISOString(),
    ).changes;
  }
}
