/**
 * Delivery receipts: what became of every notification (fired → delivered with the HTTP status,
 * or failed → retried → delivered or undeliverable) and every task firing (fired → ran or failed;
 * missed during downtime; caught up late; retried after a crash), so a reminder that never
 * reached the user says so instead of looking like success. Port and shapes only.
 */

/** Where a notification stands. */
export type DeliveryState = "fired" | "delivered" | "retrying" | "undeliverable";

/** One push notification and its delivery. */
export interface NotificationReceipt {
  id: number;
  /** The outbox key it went out under (absent for Radar's own notices). */
  key?: string;
  conversationId?: number;
  taskId?: number;
  approvalId?: number;
  title: string;
  message: string;
  /** The whole request body (ntfy JSON), kept to retry it exactly. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  /** The last HTTP status (delivered: 2xx). */
  httpStatus?: number;
  lastError?: string;
  firedAt: string;
  deliveredAt?: string;
  nextAttemptAt?: string;
}

/** A notification about to go out. */
export interface NewNotificationReceipt {
  key?: string;
  conversationId?: number;
  taskId?: number;
  approvalId?: number;
  title: string;
  message: string;
  payload: string;
}

/** How one attempt ended. */
export type DeliveryAttempt =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string };

/** Where a task firing stands. */
export type FiringState = "fired" | "ran" | "failed" | "missed" | "busy";

/** One time a task was due. */
export interface TaskFiring {
  id: number;
  taskId: number;
  /** The time it was due. */
  dueAt: string;
  /** When it ran (or was found missed). */
  firedAt: string;
  state: FiringState;
  /** Ran late after downtime (within its catch-up window). */
  caughtUp: boolean;
  /** Run again after a crash cut it short. */
  retried: boolean;
  runId?: number;
  conversationId?: number;
  note?: string;
}

/** Port: notification receipts. */
export interface NotificationReceipts {
  fire(receipt: NewNotificationReceipt, at: Date): number;
  /** Records an attempt; a failure schedules the next try at `retryAt` (absent: undeliverable). */
  attempt(id: number, attempt: DeliveryAttempt, at: Date, retryAt?: Date): void;
  get(id: number): NotificationReceipt | undefined;
  /** Newest first; `conversationIds` filters (a task's runs). */
  recent(limit: number, filter?: { conversationIds?: readonly number[] }): NotificationReceipt[];
  /** Receipts whose next try is due. */
  dueRetries(at: Date, limit: number): NotificationReceipt[];
  /** How many are undeliverable since `since`, and the newest of them. */
  undeliverable(since: Date): { count: number; latest?: NotificationReceipt };
  prune(before: Date): number;
}

/** Port: task firings. */
export interface TaskFirings {
  fire(
    firing: Omit<TaskFiring, "id" | "state" | "firedAt"> & { state?: FiringState },
    at: Date,
  ): number;
  finish(
    id: number,
    finish: { state: FiringState; runId?: number; conversationId?: number; note?: string },
  ): void;
  /** Newest first; one task's, or every task's. */
  recent(limit: number, taskId?: number): TaskFiring[];
  prune(before: Date): number;
}

/** Waits before the 2nd, 3rd, … try of a failed notification; after the last, undeliverable. */
export const retryDelaysMinutes: readonly number[] = [1, 5, 30, 120];

/** When to try again after `attempts` failed tries, or undefined when it is undeliverable. */
export function nextRetry(attempts: number, at: Date): Date | undefined {
  const minutes = retryDelaysMinutes[attempts - 1];
  return minutes === undefined ? undefined : new Date(at.getTime() + minutes * 60_000);
}
