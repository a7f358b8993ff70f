/** Task firings in SQLite: each time a task was due, and what became of it. */
import type { DatabaseSync } from "node:sqlite";
import type { FiringState, TaskFiring, TaskFirings } from "../../core/receipts.ts";
import { statement } from "./statements.ts";
import { insert, write } from "./write.ts";

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

const optionalNumber = (value: number | null) => value === null ? undefined : Number(value);

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
