/**
 * The runs in progress per conversation (`conversation_runs`): a row while a turn runs, deleted
 * when it ends. A process killed mid-run (`radar ask` killed while the model answers, a daemon
 * crash) leaves its row; the next start finds it (its PID is gone, or belongs to a newer process)
 * and marks it interrupted with the last message stored by then, which history and the dashboard
 * show.
 */
import type { DatabaseSync } from "node:sqlite";
import type { Clock, ConversationRuns } from "../../core/ports.ts";
import { statement } from "./statements.ts";
import { insert, transaction, write } from "./write.ts";
import { readOnlyReason } from "./storage_failure.ts";

/** Which process runs, and how to tell whether another one still does. */
interface RunOwner {
  pid: number;
  isAlive(pid: number): boolean;
  /** When a PID's process started (a PID reused since the run began is not its runner). */
  processStart?(pid: number): Date | undefined;
}

/** Conversation runs in SQLite. */
export class SqliteConversationRuns implements ConversationRuns {
  constructor(
    private readonly db: DatabaseSync,
    private readonly clock: Clock,
    private readonly owner: RunOwner,
  ) {}

  /** Records the run; the returned function deletes its row (the run ended, however). */
  begin(conversationId: number): () => void {
    const id = insert(
      this.db,
      "the run",
      `INSERT INTO conversation_runs (conversation_id, pid, started_at, state)
       VALUES (?, ?, ?, 'running')`,
      conversationId,
      this.owner.pid,
      this.clock.now().toISOString(),
    );
    return () => {
      try {
        write(this.db, "the run's end", "DELETE FROM conversation_runs WHERE id = ?", id);
      } catch {
        // A full or damaged disk: the row is found by the next start as interrupted.
      }
    };
  }

  /**
   * Marks the running rows of processes that are gone as interrupted (called at every start);
   * returns the conversations found interrupted. Nothing is written on a read-only database.
   */
  closeInterrupted(): number[] {
    const rows = statement(
      this.db,
      "SELECT id, conversation_id, pid, started_at FROM conversation_runs WHERE state = 'running'",
    ).all() as Array<{ id: number; conversation_id: number; pid: number; started_at: string }>;
    const gone = rows.filter((row) => !this.#runs(Number(row.pid), row.started_at));
    if (!gone.length || readOnlyReason(this.db)) return [];
    const at = this.clock.now().toISOString();
    transaction(this.db, () => {
      for (const row of gone) {
        write(
          this.db,
          "the interrupted run",
          `UPDATE conversation_runs SET state = 'interrupted', interrupted_at = ?,
             last_message_id = (SELECT MAX(id) FROM messages WHERE conversation_id = ?)
           WHERE id = ?`,
          at,
          row.conversation_id,
          row.id,
        );
      }
    }, "the interrupted runs");
    return gone.map((row) => Number(row.conversation_id));
  }

  /** Whether the process that started a run at `startedAt` still runs. */
  #runs(pid: number, startedAt: string): boolean {
    if (pid === this.owner.pid) return true; // this process's own (a daemon's chat, say)
    if (!this.owner.isAlive(pid)) return false;
    const started = this.owner.processStart?.(pid);
    // A process that started after the run began only reused its PID.
    return !started || started.getTime() <= Date.parse(startedAt) + 1_000;
  }
}
