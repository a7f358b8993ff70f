/** `radar eval` runs and their task outcomes (migrations 015, 047: suites and decisions). */
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import type { DatabaseSync } from "node:sqlite";
import type {
  EvalHistory,
  EvalRunRecord,
  NewEvalRun,
  TaskOutcome,
} from "../../core/eval_records.ts";
import { insert, transaction, write } from "./write.ts";

/** The columns of a run, in its record's key order. */
const runColumns = columnsOf<EvalRunRecord>()(
  `id started_at model server tasks passed tools_right tool_responses leaked_responses
   prompt_tokens completion_tokens median_latency_ms duration_ms suite false_alarms misses`,
);

/** The columns of a task outcome after its id, in its record's key order. */
const outcomeColumns = columnsOf<Omit<TaskOutcome, "id">>()(
  `pass reason tool_calls tools_right tool_responses leaked_responses prompt_tokens
   completion_tokens latency_ms expected decision`,
);

function toRun(row: Row): EvalRunRecord {
  return camelRecord(row, runColumns);
}

function toOutcome(row: Row): TaskOutcome {
  return {
    id: row.task_id as string,
    ...camelRecord(row, outcomeColumns),
    pass: Boolean(row.pass),
    reason: (row.reason as string) || undefined,
    expected: (row.expected as string) || undefined,
    decision: (row.decision as string) || undefined,
    toolCalls: JSON.parse(row.tool_calls as string) as string[],
    toolsRight: Boolean(row.tools_right),
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
           median_latency_ms, duration_ms, suite, false_alarms, misses)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        run.suite ?? "tasks",
        run.falseAlarms ?? 0,
        run.misses ?? 0,
      );
      run.outcomes.forEach((outcome, position) =>
        write(
          this.db,
          "the eval run",
          `INSERT INTO eval_task_results (run_id, position, task_id, pass, reason, tool_calls,
             tools_right, tool_responses, leaked_responses, prompt_tokens, completion_tokens,
             latency_ms, expected, decision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          (outcome.expected ?? "").slice(0, 100),
          (outcome.decision ?? "").slice(0, 100),
        )
      );
      return runId;
    }, "the eval run");
  }

  /** Runs newest first. */
  recent(limit: number): EvalRunRecord[] {
    const sql = "SELECT * FROM eval_runs ORDER BY id DESC LIMIT ?";
    return selectAll(this.db, toRun, sql, Math.max(1, Math.min(limit, 500)));
  }

  /** One run. */
  get(id: number): EvalRunRecord | undefined {
    return selectOne(this.db, toRun, "SELECT * FROM eval_runs WHERE id = ?", id);
  }

  /** A run's task outcomes in order. */
  outcomes(runId: number): TaskOutcome[] {
    const sql = "SELECT * FROM eval_task_results WHERE run_id = ? ORDER BY position";
    return selectAll(this.db, toOutcome, sql, runId);
  }
}
