/**
 * Scheduled task runs in progress. A claim is written with the run (the task's next run already
 * moved) and cleared when it finishes; a claim whose run was closed as interrupted (a crash) is
 * the one run the daemon owes: it is retried for the same due time, so its outbox keys match, in
 * the conversation it had started.
 */
import type { DatabaseSync } from "node:sqlite";
import type { TaskClaim, TaskClaims } from "../../core/work_ports.ts";
import { write } from "./write.ts";
import { camelRecord, columnsOf, selectAll } from "./rows.ts";

/** A claim's columns, in its record's key order. */
const claimColumns = columnsOf<TaskClaim>()("task_id run_id due_at conversation_id");

/** The `task_claims` table. */
export class SqliteTaskClaimStore implements TaskClaims {
  constructor(private readonly db: DatabaseSync) {}

  /** Records the claim of a scheduled run. */
  record(claim: TaskClaim, at: Date): void {
    write(
      this.db,
      "the task claim",
      `INSERT OR REPLACE INTO task_claims (task_id, run_id, due_at, claimed_at, conversation_id)
       VALUES (?, ?, ?, ?, ?)`,
      claim.taskId,
      claim.runId,
      claim.dueAt,
      at.toISOString(),
      claim.conversationId ?? null,
    );
  }

  /** Clears a finished run's claim. */
  clear(taskId: number, runId?: number): void {
    if (runId === undefined) {
      write(this.db, "the task claim", "DELETE FROM task_claims WHERE task_id = ?", taskId);
    } else {
      write(
        this.db,
        "the task claim",
        "DELETE FROM task_claims WHERE task_id = ? AND run_id = ?",
        taskId,
        runId,
      );
    }
  }

  /** Claims whose run is no longer running without having cleared them: interrupted runs. */
  interrupted(): TaskClaim[] {
    return selectAll(
      this.db,
      (row) => camelRecord(row, claimColumns),
      // A conversation deleted since (radar history) is not continued: the retry starts one.
      `SELECT c.task_id, c.run_id, c.due_at,
         (SELECT id FROM conversations WHERE id = c.conversation_id) AS conversation_id
       FROM task_claims c
       LEFT JOIN heartbeat_runs r ON r.id = c.run_id
       WHERE r.id IS NULL OR r.outcome != 'running' ORDER BY c.due_at`,
    );
  }
}
