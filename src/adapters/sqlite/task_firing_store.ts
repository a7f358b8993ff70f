/** Task firings in SQLite: each time a task was due, and what became of it. */
import type { DatabaseSync } from "node:sqlite";
import type { TaskFiring, TaskFirings } from "../../away/receipts.ts";
import { camelRecord, columnsOf, type Row, selectAll } from "./rows.ts";
import { deleteBefore, insert, write } from "./write.ts";

/** The columns of a firing, in its record's key order. */
const firingColumns = columnsOf<TaskFiring>()(
  "id task_id due_at fired_at state caught_up retried run_id conversation_id note",
);

function toFiring(row: Row): TaskFiring {
  return {
    ...camelRecord(row, firingColumns),
    caughtUp: Boolean(row.caught_up),
    retried: Boolean(row.retried),
  };
}

/** The `task_firings` table. */
export class SqliteTaskFirings implements TaskFirings {
  constructor(private readonly db: DatabaseSync) {}

  /** Records a firing (state `fired` unless given). */
  fire(...[firing, at]: Parameters<TaskFirings["fire"]>): number {
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
  finish(...[id, finish]: Parameters<TaskFirings["finish"]>): void {
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
    const sql = taskId === undefined
      ? "SELECT * FROM task_firings ORDER BY id DESC LIMIT ?"
      : "SELECT * FROM task_firings WHERE task_id = ? ORDER BY id DESC LIMIT ?";
    const params = taskId === undefined ? [limit] : [taskId, limit];
    return selectAll(this.db, toFiring, sql, ...params);
  }

  /** Deletes firings before `before`. */
  prune(before: Date): number {
    return deleteBefore(
      this.db,
      "the task firings cleanup",
      "DELETE FROM task_firings WHERE fired_at < ?",
      before,
    );
  }
}
