/** Scheduled tasks in SQLite. */
import { maxEveryMinutes, minEveryMinutes } from "../../core/bounds.ts";
import type { DatabaseSync } from "node:sqlite";
import type { NewTask, TaskStore } from "../../core/work_ports.ts";
import type { TaskRecord } from "../../core/schedule_ports.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { insert, write } from "./write.ts";

/** The columns of a task, in its record's key order (its personality follows when it has one). */
const taskColumns = columnsOf<TaskRecord>()(
  `id name message schedule_kind schedule catch_up enabled created_at next_run_at last_run_at
   last_outcome last_conversation_id`,
);

/** An "every" interval read within the bounds (rows stored before the bounds existed). */
function boundedEvery(minutes: string): string {
  const value = Number(minutes);
  if (!Number.isFinite(value)) return minutes;
  return String(Math.min(Math.max(Math.round(value), minEveryMinutes), maxEveryMinutes));
}

function toTask(row: Row): TaskRecord {
  const schedule = row.schedule as string;
  return {
    ...camelRecord(row, taskColumns),
    schedule: row.schedule_kind === "every" ? boundedEvery(schedule) : schedule,
    enabled: row.enabled === 1,
    ...(row.personality ? { personality: row.personality as string } : {}),
  };
}

/** Tasks in SQLite. */
export class SqliteTaskStore implements TaskStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Adds a task; returns its id. */
  add(task: NewTask, at: Date): number {
    return insert(
      this.db,
      "the task",
      `INSERT INTO tasks (name, message, schedule_kind, schedule, catch_up, created_at, next_run_at,
         personality)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      task.name.slice(0, 100),
      task.message.slice(0, 4000),
      task.scheduleKind,
      task.schedule,
      task.catchUp,
      at.toISOString(),
      task.nextRunAt?.toISOString() ?? null,
      task.personality?.slice(0, 300) ?? null,
    );
  }

  /** One task. */
  get(id: number): TaskRecord | undefined {
    return selectOne(this.db, toTask, "SELECT * FROM tasks WHERE id = ?", id);
  }

  /** Every task, by id. */
  list(): TaskRecord[] {
    return selectAll(this.db, toTask, "SELECT * FROM tasks ORDER BY id");
  }

  /** Enabled tasks whose next run is at or before `now`. */
  due(now: Date): TaskRecord[] {
    const sql =
      `SELECT * FROM tasks WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ?
       ORDER BY next_run_at, id`;
    return selectAll(this.db, toTask, sql, now.toISOString());
  }

  /** Deletes a task. */
  remove(id: number): boolean {
    return write(this.db, "the task's removal", "DELETE FROM tasks WHERE id = ?", id).changes > 0;
  }

  /** Enables or disables a task and sets its next run. */
  setEnabled(id: number, enabled: boolean, nextRunAt: Date | undefined): boolean {
    return write(
      this.db,
      "the task",
      "UPDATE tasks SET enabled = ?, next_run_at = ? WHERE id = ?",
      enabled ? 1 : 0,
      nextRunAt?.toISOString() ?? null,
      id,
    ).changes > 0;
  }

  /** Sets the next run only (missed runs skipped). */
  setNextRun(id: number, nextRunAt: Date | undefined): void {
    write(
      this.db,
      "the task's next run",
      "UPDATE tasks SET next_run_at = ? WHERE id = ?",
      nextRunAt?.toISOString() ?? null,
      id,
    );
  }

  /** Records a run and the next one (none: a finished one-shot is disabled). */
  recordRun(...[id, run]: Parameters<TaskStore["recordRun"]>): void {
    write(
      this.db,
      "the task run",
      `UPDATE tasks SET last_run_at = ?, last_outcome = ?, last_conversation_id = ?,
        next_run_at = ?, enabled = CASE WHEN ? IS NULL THEN 0 ELSE enabled END WHERE id = ?`,
      run.at.toISOString(),
      run.outcome.slice(0, 300),
      run.conversationId ?? null,
      run.nextRunAt?.toISOString() ?? null,
      run.nextRunAt?.toISOString() ?? null,
      id,
    );
  }
}
