/** `radar eval` runs and their task outcomes (migration 015). */
import { statement } from "./statements.ts";
import type { DatabaseSync } from "node:sqlite";
import type {
  EvalHistory,
  EvalRunRecord,
  NewEvalRun,
  TaskOutcome,
} from "../../core/eval_records.ts";
import { insert, transaction, write } from "./write.ts";

interface RunRow {
  id: number;
  started_at: string;
  model: string;
  server: string;
  tasks: number;
  passed: number;
  tools_right: number;
  tool_responses: number;
  leaked_responses: number;
  prompt_tokens: number;
  completion_tokens: number;
  median_latency_ms: number;
  duration_ms: number;
}

interface TaskRow {
  task_id: string;
  pass: number;
  reason: string;
  tool_calls: string;
  tools_right: number;
  tool_responses: number;
  leaked_responses: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
}

function toRun(row: RunRow): EvalRunRecord {
  return {
    id: Number(row.id),
    startedAt: row.started_at,
    model: row.model,
    server: row.server,
    tasks: Number(row.tasks),
    passed: Number(row.passed),
    toolsRight: Number(row.tools_right),
    toolResponses: Number(row.tool_responses),
    leakedResponses: Number(row.leaked_responses),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    medianLatencyMs: Number(row.median_latency_ms),
    durationMs: Number(row.duration_ms),
  };
}

function toOutcome(row: TaskRow): TaskOutcome {
  return {
    id: row.task_id,
    pass: Boolean(row.pass),
    reason: row.reason || undefined,
    toolCalls: JSON.parse(row.tool_calls) as string[],
    toolsRight: Boolean(row.tools_right),
    toolResponses: Number(row.tool_responses),
    leakedResponses: Number(row.leaked_responses),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    latencyMs: Number(row.latency_ms),
  };
}

/** Eval runs in SQLite. */
export class SqliteEvalStore implements EvalHistory {
  constructor(private readonly db: DatabaseSync) {}

  /** Stores a run and its outcomes in one transaction; returns the run id. */
  add(run: NewEvalRun): number {
    return transaction(this.db, () => {
      const runId = insert(
        this.db,
        "the eval run",
        `INSERT INTO eval_runs (started_at, model, server, tasks, passed, tools_right,
           tool_responses, leaked_responses, prompt_tokens, completion_tokens,
           median_latency_ms, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        run.startedAt,
        run.model.slice(0, 200),
        run.server.slice(0, 500),
        run.tasks,
        run.passed,
        run.toolsRight,
        run.toolResponses,
        run.leakedResponses,
        run.promptTokens,
        run.completionTokens,
        Math.round(run.medianLatencyMs),
        Math.round(run.durationMs),
      );
      run.outcomes.forEach((outcome, position) =>
        write(
          this.db,
          "the eval run",
          `INSERT INTO eval_task_results (run_id, position, task_id, pass, reason, tool_calls,
             tools_right, tool_responses, leaked_responses, prompt_tokens, completion_tokens,
             latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          runId,
          position,
          outcome.id,
          outcome.pass ? 1 : 0,
          (outcome.reason ?? "").slice(0, 500),
          JSON.stringify(outcome.toolCalls.slice(0, 50)),
          outcome.toolsRight ? 1 : 0,
          outcome.toolResponses,
          outcome.leakedResponses,
          outcome.promptTokens,
          outcome.completionTokens,
          Math.round(outcome.latencyMs),
        )
      );
      return runId;
    }, "the eval run");
  }

  /** Runs newest first. */
  recent(limit: number): EvalRunRecord[] {
    const rows = statement(this.db, "SELECT * FROM eval_runs ORDER BY id DESC LIMIT ?")
      .all(Math.max(1, Math.min(limit, 500))) as unknown as RunRow[];
    return rows.map(toRun);
  }

  /** One run. */
  get(id: number): EvalRunRecord | undefined {
    const row = statement(this.db, "SELECT * FROM eval_runs WHERE id = ?").get(id) as
      | RunRow
      | undefined;
    return row && toRun(row);
  }

  /** A run's task outcomes in order. */
  outcomes(runId: number): TaskOutcome[] {
    const rows = statement(
      this.db,
      "SELECT * FROM eval_task_results WHERE run_id = ? ORDER BY position",
    ).all(runId) as unknown as TaskRow[];
    return rows.map(toOutcome);
  }
}
