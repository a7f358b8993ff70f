/** Who created a task (the user or the model) and whether the user approved a model's task. */
import type { DatabaseSync } from "node:sqlite";
import type { TaskOrigin, TaskOrigins } from "../../core/work_ports.ts";
import { statement } from "./statements.ts";
import { write } from "./write.ts";

/** The `task_origins` table. */
export class SqliteTaskOriginStore implements TaskOrigins {
  constructor(private readonly db: DatabaseSync) {}

  /** Records that the model created task `taskId`. */
  recordModelTask(taskId: number): void {
    write(
      this.db,
      "the task's origin",
      "INSERT OR REPLACE INTO task_origins (task_id, origin) VALUES (?, 'model')",
      taskId,
    );
  }

  /** The origin of a task. */
  get(taskId: number): TaskOrigin {
    const row = statement(this.db, "SELECT origin, approved_at FROM task_origins WHERE task_id = ?")
      .get(taskId) as { origin: "user" | "model"; approved_at: string | null } | undefined;
    if (!row) return { origin: "user" };
    return { origin: row.origin, approvedAt: row.approved_at ?? undefined };
  }

  /** Approves a model's task; false when it is not one. */
  approve(taskId: number, at: Date): boolean {
    return write(
      this.db,
      "the task approval",
      "UPDATE task_origins SET approved_at = ? WHERE task_id = ? AND origin = 'model'",
      at.toISOString(),
      taskId,
    ).changes > 0;
  }
}
