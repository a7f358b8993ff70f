/**
 * Delivery receipts: what became of every task firing (fired → ran or failed; missed during
 * downtime; caught up late; retried after a crash) and every notification (fired → delivered with
 * the HTTP status, or failed → retried → delivered or undeliverable; kept in the outbox), so a
 * reminder that never reached the user says so instead of looking like success.
 */

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
