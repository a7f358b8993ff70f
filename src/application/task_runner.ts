/** Runs due tasks on the tick (with the catch-up rule) and on demand (`radar task run-now`). */
import type {
  Outbox,
  RunLog,
  TaskClaim,
  TaskClaims,
  TaskStore,
  TickJob,
  Transaction,
} from "../core/work_ports.ts";
import { agentLoopModule } from "./agent_loop_module.ts";
import { type AgentDependencies, type AgentResult, runActivity } from "../core/agent_types.ts";
import type { Clock, ConversationStore, Logger } from "../core/ports.ts";
import { dueAction } from "../core/schedule.ts";
import type { TaskRecord } from "../core/schedule_ports.ts";
import { nextRunAfter } from "./task_schedule.ts";
import { daemonToolNames, proactiveTools } from "./offered_tools.ts";
import { runSideEffects, taskScope } from "../core/run_side_effects.ts";
import { taskUserMessage } from "./task_message.ts";
import { isValidDate, laterBy } from "../core/zoned_time.ts";
import type { TaskFirings } from "../away/mod.ts";
import type { UnattendedBudget } from "./unattended_budget.ts";

/** What the task runner needs. */
interface TaskRunnerDependencies {
  /** One database transaction (the event and the state it records commit together). */
  transaction: Transaction;
  store: TaskStore;
  runs: RunLog;
  conversations: ConversationStore;
  /** Notifications recorded before they are sent (never twice after a crash). */
  outbox: Outbox;
  /** The run's dependencies; `personality` is the task's own, when it has one. */
  agent: (personality?: string) => Promise<AgentDependencies>;
  /** Scheduled runs in progress (an interrupted one is retried once for the same due time). */
  claims?: TaskClaims;
  /** True for a model-created task the user has not approved: it gets read-only tools only. */
  needsApproval?: (taskId: number) => boolean;
  clock: Clock;
  logger: Logger;
  pid: number;
  /** Whether a process still runs (a task claimed by a dead one is free again). */
  isAlive: (pid: number) => boolean;
  timeZone?: string;
  elapsed: () => number;
  /** Each time a task was due and what became of it (`radar task log`); absent: not recorded. */
  firings?: TaskFirings;
  /** `budget:`: a scheduled run past today's tokens waits for tomorrow (it stays due). */
  budget?: Pick<UnattendedBudget, "pausedFor">;
}

/** A scheduled run this much after its due time ran late (caught up after downtime). */
const lateAfterMs = 2 * 60_000;

/** The outcome of one task run. */
export interface TaskRunReport {
  task: TaskRecord;
  /** `busy`: already running (not started again); `paused`: the budget holds it until tomorrow. */
  outcome: "ran" | "failed" | "busy" | "paused";
  reason: string;
  result?: AgentResult;
  conversationId?: number;
}

/** The schedule of one scheduled run: the due time it is for and the task's next run after it. */
export interface ScheduledRun {
  dueAt: string;
  /** Undefined for a one-shot: the task is spent once this run is recorded. */
  nextRunAt: Date | undefined;
  /** The conversation of the interrupted run this one retries (continued, not started again). */
  conversationId?: number;
}

function currentNextRun(task: TaskRecord): Date | undefined {
  return task.nextRunAt ? new Date(task.nextRunAt) : undefined;
}

/** Runs tasks as their own conversations; a tick job. */
export class TaskRunner implements TickJob {
  readonly name = "tasks";
  constructor(private readonly deps: TaskRunnerDependencies) {}

  /** Runs every due task once; missed runs follow the task's catch-up rule, never a burst. */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    for (const claim of deps.claims?.interrupted() ?? []) {
      if (signal.aborted) return;
      try {
        await this.#retryInterrupted(claim, now, signal);
      } catch (error) {
        deps.claims?.clear(claim.taskId);
        this.#broken({ id: claim.taskId } as TaskRecord, now, error);
      }
    }
    for (const task of deps.store.due(now)) {
      if (signal.aborted) return;
      // One broken task (a bad row, a bug) is flagged and backed off; the others still run.
      try {
        await this.#runDue(task, now, signal);
      } catch (error) {
        this.#broken(task, now, error);
      }
    }
  }

  /**
   * A scheduled run cut short by a crash runs again once (if still within its catch-up window),
   * for the same due time: its notifications keep their outbox keys and are not sent twice.
   */
  async #retryInterrupted(
    { taskId, dueAt, conversationId }: TaskClaim,
    now: Date,
    signal: AbortSignal,
  ): Promise<void> {
    const { deps } = this;
    const task = deps.store.get(taskId);
    if (!task?.enabled) {
      deps.claims?.clear(taskId);
      return;
    }
    if (dueAction(new Date(dueAt), now, task.catchUp) !== "run") {
      deps.logger.info("interrupted task run not retried: too late", { task: taskId, due: dueAt });
      deps.claims?.clear(taskId);
      return;
    }
    deps.logger.warn("retrying a task run interrupted by a crash", { task: taskId, due: dueAt });
    await this.runTask(task, "schedule", signal, {
      nextRunAt: currentNextRun(task),
      dueAt,
      conversationId,
    });
  }

  async #runDue(task: TaskRecord, now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    const dueAt = new Date(task.nextRunAt!);
    const action = dueAction(dueAt, now, task.catchUp);
    // On the schedule's own grid (the due time just reached), not counted from this tick.
    const next = nextRunAfter(task, now, deps.timeZone, dueAt);
    if (next !== undefined && !isValidDate(next)) {
      throw new Error(`its schedule "${task.schedule}" gives no valid next run`);
    }
    if (action === "skip_missed") {
      deps.logger.info("missed task run skipped", { task: task.id, due: task.nextRunAt });
      const note = `missed while Radar was not running (catch-up: ${task.catchUp})`;
      this.#notRun(task.id, task.nextRunAt!, "missed", note, now);
      if (next) deps.store.setNextRun(task.id, next);
      else deps.store.recordRun(task.id, { at: now, outcome: "missed", nextRunAt: undefined });
      return;
    }
    if (action === "run") {
      await this.runTask(task, "schedule", signal, { nextRunAt: next, dueAt: task.nextRunAt! });
    }
  }

  /**
   * The tools of a task run. A task the model created and the user has not approved (`radar task
   * approve ID`) runs unattended with read-only tools and `notify` only: a prompt that talked the
   * model into scheduling it cannot make it run exec or write files later.
   */
  #toolNames(agent: AgentDependencies, task: TaskRecord): string[] {
    const names = daemonToolNames(agent, task.message);
    if (!this.deps.needsApproval?.(task.id)) return names;
    return names.filter((name) =>
      proactiveTools.includes(name) || agent.registry.get(name)?.readOnly === true
    );
  }

  /** Records a firing that did not run: missed while Radar was down, or busy. */
  #notRun(taskId: number, dueAt: string, state: "missed" | "busy", note: string, at: Date): void {
    this.deps.firings?.fire({ taskId, dueAt, state, caughtUp: false, retried: false, note }, at);
  }

  /** Records an unexpected failure of one task: logged, flagged in its last outcome, retried in a day. */
  #broken(task: TaskRecord, now: Date, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const retry = laterBy(now, 24 * 60);
    this.deps.logger.error("task failed unexpectedly; retrying in a day", {
      task: task.id,
      error: message,
    });
    try {
      this.deps.store.recordRun(task.id, {
        at: now,
        outcome: `failed: ${message} (retry ${retry.toISOString()})`,
        nextRunAt: retry,
      });
    } catch (inner) {
      this.deps.logger.error("cannot record a task failure", {
        task: task.id,
        error: (inner as Error).message,
      });
    }
  }

  /**
   * Runs one task now through the agent loop. A scheduled run says which due time it is for and
   * when the task runs next (none: a spent one-shot, disabled when the run is recorded); a manual
   * run leaves the schedule as it is.
   */
  async runTask(
    task: TaskRecord,
    trigger: "schedule" | "manual",
    signal?: AbortSignal,
    schedule?: ScheduledRun,
  ): Promise<TaskRunReport> {
    const { deps } = this;
    // Spelled out, not a default parameter: `undefined` (no next run) is a value here.
    const nextRunAt = schedule ? schedule.nextRunAt : currentNextRun(task);
    const dueAt = schedule ? schedule.dueAt : task.nextRunAt;
    const paused = trigger === "schedule"
      ? deps.budget?.pausedFor({ kind: "task", taskId: task.id })
      : undefined;
    if (paused) return { task, outcome: "paused", reason: paused };
    const started = deps.elapsed();
    const at = deps.clock.now();
    const claim = deps.runs.claimTask(task.id, trigger, at, deps.pid, deps.isAlive);
    if ("heldBy" in claim) {
      const reason = `task ${task.id} is already running (PID ${claim.heldBy}); not started again`;
      deps.logger.info("task run skipped: already running", { task: task.id, pid: claim.heldBy });
      // A scheduled run that found it busy moves on, so the next tick does not fire it again.
      if (trigger === "schedule" && nextRunAt) deps.store.setNextRun(task.id, nextRunAt);
      this.#notRun(task.id, dueAt ?? at.toISOString(), "busy", reason, at);
      return { task, outcome: "busy", reason };
    }
    const runId = claim.runId;
    const firing = deps.firings?.fire({
      taskId: task.id,
      dueAt: trigger === "schedule" && dueAt ? dueAt : at.toISOString(),
      caughtUp: trigger === "schedule" && dueAt !== undefined &&
        at.getTime() - new Date(dueAt).getTime() > lateAfterMs,
      // An interrupted run retried for its old due time (the task's next run moved on since).
      retried: trigger === "schedule" && dueAt !== undefined && dueAt !== task.nextRunAt,
      runId,
      note: trigger === "manual" ? "run now" : undefined,
    }, at);
    let conversationId: number | undefined;
    let result: AgentResult | undefined;
    let outcome: TaskRunReport["outcome"] = "ran";
    let reason = "answer";
    try {
      // Claimed, and the next run moved, before it starts: a crash mid-run does not repeat it.
      // The claim names the run's conversation: a retry after a crash continues that one.
      if (trigger === "schedule") {
        conversationId = deps.transaction(() => {
          const id = schedule?.conversationId ??
            deps.conversations.createConversation("task", task.name, at);
          deps.store.setNextRun(task.id, nextRunAt);
          if (dueAt) deps.claims?.record({ taskId: task.id, runId, dueAt, conversationId: id }, at);
          return id;
        });
      } else {
        conversationId = deps.conversations.createConversation("task", task.name, at);
      }
      const agent = await deps.agent(task.personality);
      const { runAgent } = await agentLoopModule();
      result = await runAgent(agent, {
        conversationId,
        kind: "task",
        userMessage: taskUserMessage(task.message, this.deps.needsApproval?.(task.id) === true),
        interactive: false,
        signal,
        toolNames: this.#toolNames(agent, task),
        sideEffects: runSideEffects(
          deps.outbox,
          taskScope(task.id, trigger === "schedule" ? dueAt : undefined, runId),
          deps.clock,
          deps.pid,
          deps.isAlive,
        ),
      });
      reason = result.stopReason;
      if (result.stopReason === "cancelled") outcome = "failed";
    } catch (error) {
      outcome = "failed";
      reason = error instanceof Error ? error.message : String(error);
    }
    const finished = deps.clock.now();
    deps.runs.finish(runId, {
      outcome,
      reason,
      conversationId,
      promptTokens: result?.usage?.promptTokens,
      completionTokens: result?.usage?.completionTokens,
      modelMs: result?.modelDurationMs,
      durationMs: deps.elapsed() - started,
      ...(result && runActivity(result)),
      answer: result?.answer,
    }, finished);
    const keepNext = trigger === "manual" ? (task.enabled ? nextRunAt : undefined) : nextRunAt;
    deps.transaction(() => {
      deps.store.recordRun(task.id, {
        at: finished,
        outcome: outcome === "ran" ? "ok" : `failed: ${reason}`,
        conversationId,
        nextRunAt: keepNext,
      });
      deps.claims?.clear(task.id, runId);
    });
    if (firing !== undefined) {
      deps.firings?.finish(firing, {
        state: outcome,
        conversationId,
        note: outcome === "ran" ? undefined : reason,
      });
    }
    deps.logger.info("task finished", { task: task.id, outcome, reason });
    return { task, outcome, reason, result, conversationId };
  }
}
