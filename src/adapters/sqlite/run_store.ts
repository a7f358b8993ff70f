/** Heartbeat and task runs: one row per tick, claimed while running, finished with its cost. */
import { boundedPage } from "../../core/bounds.ts";
import type { DatabaseSync } from "node:sqlite";
import type {
  BackgroundModelCall,
  ClaimRequest,
  RunClaim,
  RunFinish,
  RunLog,
} from "../../core/work_ports.ts";
import type { RunRecord } from "../../core/schedule_ports.ts";
import type { SpentTokens } from "../../core/budget.ts";
import { statement } from "./statements.ts";
import { deleteBefore, insert, transaction, write } from "./write.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";

/** The columns of a run, in its record's key order. */
const runColumns = columnsOf<RunRecord>()(
  `id kind trigger task_id pid started_at finished_at outcome reason event_count conversation_id
   prompt_tokens completion_tokens model_ms duration_ms tools notifications answer`,
);

/** The columns of one run's or background call's spent tokens, in its record's key order. */
const spentColumns = columnsOf<SpentTokens>()("kind task_id started_at tokens");

function toRecord(row: Row): RunRecord {
  return { ...camelRecord(row, runColumns), tools: JSON.parse(row.tools as string) as string[] };
}

/** Runs in SQLite. */
export class SqliteRunStore implements RunLog {
  constructor(private readonly db: DatabaseSync) {}

  /**
   * Claims a heartbeat run: records a `running` row unless another live process is running a
   * heartbeat. Running rows of dead processes (a crash, kill -9) are closed as interrupted.
   * Returns the new run id, or the PID holding the claim.
   */
  claimHeartbeat(...[trigger, at, pid, isAlive]: ClaimRequest): RunClaim {
    // The process's own row is a leftover (its ticks never overlap): taken over, not waited for.
    return this.#claim(
      "heartbeat",
      undefined,
      trigger,
      at,
      pid,
      (holder) => holder !== pid && isAlive(holder),
    );
  }

  /**
   * Claims a run of one task: records a `running` row unless a live process (this one included:
   * the dashboard's "Run now" and the scheduler share the daemon) is already running that task.
   * Running rows of dead processes are closed as interrupted. Returns the run id or the holder.
   */
  claimTask(taskId: number, ...claim: ClaimRequest): RunClaim {
    return this.#claim("task", taskId, ...claim);
  }

  #claim(
    kind: RunRecord["kind"],
    taskId: number | undefined,
    trigger: RunRecord["trigger"],
    at: Date,
    pid: number,
    holds: (holder: number) => boolean,
  ): RunClaim {
    return transaction(this.db, () => {
      const running = statement(
        this.db,
        `SELECT id, pid FROM heartbeat_runs
         WHERE outcome = 'running' AND kind = ? AND task_id IS ?`,
      ).all(kind, taskId ?? null) as Array<{ id: number; pid: number }>;
      for (const row of running) {
        if (holds(Number(row.pid))) return { heldBy: Number(row.pid) };
        this.#interrupt(Number(row.id), at);
      }
      return { runId: this.#insert(kind, trigger, taskId, at, pid) };
    });
  }

  /** Records a tick that did nothing (no claim needed: it touches no events). */
  recordSkipped(trigger: RunRecord["trigger"], at: Date, pid: number, reason: string): number {
    const id = this.#insert("heartbeat", trigger, undefined, at, pid);
    this.finish(id, { outcome: "skipped", reason, durationMs: 0 }, at);
    return id;
  }

  /** Closes running rows of processes that are gone (called at daemon start). */
  closeAbandoned(at: Date, isAlive: (pid: number) => boolean): number {
    const rows = statement(this.db, "SELECT id, pid FROM heartbeat_runs WHERE outcome = 'running'")
      .all() as Array<{ id: number; pid: number }>;
    let closed = 0;
    for (const row of rows) {
      if (isAlive(Number(row.pid))) continue;
      this.#interrupt(Number(row.id), at);
      closed++;
    }
    return closed;
  }

  /** Finishes a run (use inside a transaction together with consuming its events). */
  finish(id: number, finish: RunFinish, at: Date): void {
    write(
      this.db,
      "the run",
      `UPDATE heartbeat_runs SET finished_at = ?, outcome = ?, reason = ?, event_count = ?,
        conversation_id = ?, prompt_tokens = ?, completion_tokens = ?, model_ms = ?,
        duration_ms = ?, tools = ?, notifications = ?, answer = ? WHERE id = ?`,
      at.toISOString(),
      finish.outcome,
      (finish.reason ?? "").slice(0, 500),
      finish.eventCount ?? 0,
      finish.conversationId ?? null,
      finish.promptTokens ?? null,
      finish.completionTokens ?? null,
      finish.modelMs === undefined ? null : Math.round(finish.modelMs),
      finish.durationMs === undefined ? null : Math.round(finish.durationMs),
      JSON.stringify(finish.tools ?? []),
      finish.notifications ?? 0,
      (finish.answer ?? "").slice(0, 2000),
      id,
    );
  }

  /** One run. */
  get(id: number): RunRecord | undefined {
    return selectOne(this.db, toRecord, "SELECT * FROM heartbeat_runs WHERE id = ?", id);
  }

  /** Recent runs, newest first. */
  recent(
    limit: number,
    options: { kind?: RunRecord["kind"]; skipped?: boolean } = {},
  ): RunRecord[] {
    const where = ["1 = 1"];
    const params: (string | number)[] = [];
    if (options.kind) {
      where.push("kind = ?");
      params.push(options.kind);
    }
    if (options.skipped === false) where.push("outcome != 'skipped'");
    const sql = `SELECT * FROM heartbeat_runs WHERE ${where.join(" AND ")}
      ORDER BY id DESC LIMIT ?`;
    return selectAll(this.db, toRecord, sql, ...params, boundedPage(limit).limit);
  }

  /** The start of the last scheduled heartbeat tick (any outcome): the interval counts from it. */
  lastScheduledHeartbeat(): Date | undefined {
    const row = statement(
      this.db,
      `SELECT started_at FROM heartbeat_runs WHERE kind = 'heartbeat' AND trigger = 'schedule'
       ORDER BY id DESC LIMIT 1`,
    ).get() as { started_at: string } | undefined;
    return row ? new Date(row.started_at) : undefined;
  }

  /** Totals since `since`: runs, model calls' tokens. */
  totals(since: Date): ReturnType<RunLog["totals"]> {
    const row = statement(
      this.db,
      `SELECT COUNT(*) AS runs, SUM(outcome = 'ran') AS ran,
        COALESCE(SUM(prompt_tokens), 0) AS prompt, COALESCE(SUM(completion_tokens), 0) AS completion
       FROM heartbeat_runs WHERE started_at >= ?`,
    ).get(since.toISOString()) as {
      runs: number;
      ran: number | null;
      prompt: number;
      completion: number;
    };
    return {
      runs: Number(row.runs),
      ran: Number(row.ran ?? 0),
      promptTokens: Number(row.prompt),
      completionTokens: Number(row.completion),
    };
  }

  /** Records the tokens of one background model call (a summary, a digest) for the budget. */
  recordBackgroundCall(call: BackgroundModelCall): void {
    insert(
      this.db,
      "the background model call",
      `INSERT INTO background_model_calls (kind, started_at, prompt_tokens, completion_tokens,
        detail) VALUES (?, ?, ?, ?, ?)`,
      call.kind,
      call.startedAt.toISOString(),
      Math.max(0, Math.round(call.promptTokens)),
      Math.max(0, Math.round(call.completionTokens)),
      (call.detail ?? "").slice(0, 200),
    );
  }

  /**
   * Tokens of every run and background model call started since `since` that spent any, oldest
   * first.
   */
  spentSince(since: Date): SpentTokens[] {
    return selectAll(
      this.db,
      (row) => camelRecord(row, spentColumns),
      `SELECT kind, task_id, started_at, tokens FROM (
         SELECT kind, task_id, started_at,
           COALESCE(prompt_tokens, 0) + COALESCE(completion_tokens, 0) AS tokens
         FROM heartbeat_runs
         WHERE started_at >= ? AND (prompt_tokens > 0 OR completion_tokens > 0)
         UNION ALL
         SELECT kind, NULL, started_at, prompt_tokens + completion_tokens
         FROM background_model_calls
         WHERE started_at >= ? AND prompt_tokens + completion_tokens > 0
       ) ORDER BY started_at`,
      since.toISOString(),
      since.toISOString(),
    );
  }

  /** Deletes skipped ticks older than `before` (they are many and say little). */
  pruneSkipped(before: Date): number {
    return deleteBefore(
      this.db,
      "the run cleanup",
      "DELETE FROM heartbeat_runs WHERE outcome = 'skipped' AND started_at < ?",
      before,
    );
  }

  #insert(
    kind: RunRecord["kind"],
    trigger: RunRecord["trigger"],
    taskId: number | undefined,
    at: Date,
    pid: number,
  ): number {
    return insert(
      this.db,
      "the run",
      `INSERT INTO heartbeat_runs (kind, trigger, task_id, pid, started_at, outcome)
       VALUES (?, ?, ?, ?, ?, 'running')`,
      kind,
      trigger,
      taskId ?? null,
      pid,
      at.toISOString(),
    );
  }

  #interrupt(id: number, at: Date): void {
    write(
      this.db,
      "the interrupted run",
      `UPDATE heartbeat_runs SET outcome = 'failed', finished_at = ?,
        reason = 'interrupted (the process stopped mid-run); its events were re-delivered'
       WHERE id = ?`,
      at.toISOString(),
      id,
    );
  }
}
