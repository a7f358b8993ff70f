/**
 * Step "commit" of a heartbeat tick: how a claimed run ends. Its run row is finished and its
 * events consumed in one transaction, and only while this process still owns the run (another
 * one may have closed it as abandoned and now owns the events). A failed or cancelled run
 * consumes nothing, so its events are delivered again; a run a hook blocked counts against its
 * events and sets aside those blocked too often. post_heartbeat hooks observe every ending.
 */
import { type AgentResult, runActivity } from "../core/agent_types.ts";
import type { PendingEvent } from "../core/heartbeat.ts";
import type { Hooks } from "../core/hooks.ts";
import { addUsage } from "../core/chat_model.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { EventQueue, RunLog, Transaction } from "../core/work_ports.ts";
import type { TriageOutcome } from "./heartbeat_triage.ts";

/** What committing a heartbeat needs. */
export interface HeartbeatCommitDependencies {
  /** One database transaction (the run's end and its consumed events commit together). */
  transaction: Transaction;
  queue: EventQueue;
  runs: RunLog;
  clock: Clock;
  logger: Logger;
  /** Monotonic milliseconds. */
  elapsed: () => number;
}

/** A heartbeat that holds its claim: what it was asked to look at, and since when. */
export interface ClaimedHeartbeat {
  runId: number;
  events: PendingEvent[];
  message: string;
  /** `elapsed()` when the tick started. */
  started: number;
  hooks?: Hooks;
}

/** What one tick saw and did. */
export interface HeartbeatReport {
  runId?: number;
  outcome: "skipped" | "ran" | "failed";
  reason: string;
  events: PendingEvent[];
  message?: string;
  estimatedPromptTokens?: number;
  result?: AgentResult;
  /** What the `fast` model's triage decided, when it ran. */
  triage?: TriageOutcome;
  durationMs: number;
}

/** Blocked heartbeats in a row after which an event is set aside (never consumed). */
export const blockedHeartbeatLimit = 3;

/** The main model ran (or was cancelled): the run is finished, its events consumed unless cancelled. */
export async function commitRun(
  deps: HeartbeatCommitDependencies,
  run: ClaimedHeartbeat & { conversationId: number },
  result: AgentResult,
  triage: TriageOutcome | undefined,
): Promise<HeartbeatReport> {
  const { runId, events } = run;
  const durationMs = deps.elapsed() - run.started;
  const cancelled = result.stopReason === "cancelled";
  const usage = addUsage(result.usage, triage?.usage);
  const finish = {
    outcome: cancelled ? "failed" as const : "ran" as const,
    reason: (cancelled ? "cancelled (shutdown); its events stay queued" : result.stopReason) +
      (triage ? `; ${triage.note}` : ""),
    ...runRow(run, durationMs),
    promptTokens: usage?.promptTokens,
    completionTokens: usage?.completionTokens,
    modelMs: result.modelDurationMs + (triage?.modelMs ?? 0),
    ...runActivity(result),
    answer: result.answer,
  };
  const committed = deps.transaction(() => {
    if (!stillOwned(deps, runId)) return false;
    deps.runs.finish(runId, finish, deps.clock.now());
    if (!cancelled) consume(deps, run);
    return true;
  });
  if (!committed) {
    deps.logger.warn("heartbeat run was taken over; events left queued", { run: runId });
  }
  await run.hooks?.observeHeartbeat({
    eventCount: events.length,
    success: finish.outcome === "ran",
    error: finish.outcome === "ran" ? undefined : finish.reason,
  });
  deps.logger.info("heartbeat finished", {
    run: runId,
    outcome: finish.outcome,
    tokens: (finish.promptTokens ?? 0) + (finish.completionTokens ?? 0),
    ms: Math.round(durationMs),
  });
  const { outcome, reason } = finish;
  return { runId, outcome, reason, events, message: run.message, result, triage, durationMs };
}

/** The fast model said nothing needs attention: the run is done and its events consumed. */
export async function commitTriaged(
  deps: HeartbeatCommitDependencies,
  run: ClaimedHeartbeat,
  triage: TriageOutcome,
): Promise<HeartbeatReport> {
  const { runId, events, message } = run;
  const durationMs = deps.elapsed() - run.started;
  const reason = `nothing needs attention; ${triage.note}`;
  deps.transaction(() => {
    if (!stillOwned(deps, runId)) return;
    deps.runs.finish(runId, {
      outcome: "ran",
      reason,
      eventCount: events.length,
      promptTokens: triage.usage?.promptTokens,
      completionTokens: triage.usage?.completionTokens,
      modelMs: triage.modelMs,
      durationMs,
      answer: triage.answer,
    }, deps.clock.now());
    consume(deps, run);
  });
  await run.hooks?.observeHeartbeat({ eventCount: events.length, success: true });
  deps.logger.info("heartbeat triaged: nothing needs the main model", { run: runId });
  return { runId, outcome: "ran", reason, events, message, triage, durationMs };
}

/**
 * A pre_agent_run hook blocked the heartbeat message: nothing reached the model, so nothing is
 * consumed. The events stay queued for the next heartbeat (a hook may block for a while only);
 * after `blockedHeartbeatLimit` blocked heartbeats an event is set aside with the hook's message
 * (`radar status` shows it), so one event a rule keeps out cannot block every later heartbeat.
 */
export async function commitBlocked(
  deps: HeartbeatCommitDependencies,
  run: ClaimedHeartbeat & { conversationId: number },
  hookMessage: string,
): Promise<HeartbeatReport> {
  const { runId, events } = run;
  const durationMs = deps.elapsed() - run.started;
  const now = deps.clock.now();
  const reason = `blocked by a hook: ${hookMessage}`;
  const setAside = deps.transaction(() => {
    if (!stillOwned(deps, runId)) return undefined;
    const ids = events.map((event) => event.id);
    const count = deps.queue.markBlocked(ids, runId, hookMessage, now, blockedHeartbeatLimit);
    const row = count
      ? `${reason}; ${count} event(s) set aside after ${blockedHeartbeatLimit} blocked heartbeats`
      : `${reason}; its events stay queued`;
    deps.runs.finish(runId, { outcome: "skipped", reason: row, ...runRow(run, durationMs) }, now);
    return count;
  });
  deps.logger.warn("heartbeat blocked by a hook", { run: runId, setAside, reason });
  return await unconsumed(run, "skipped", reason, durationMs);
}

/** The main model failed: the run is recorded failed and its events stay queued. */
export async function commitFailure(
  deps: HeartbeatCommitDependencies,
  run: ClaimedHeartbeat & { conversationId: number },
  error: unknown,
): Promise<HeartbeatReport> {
  const reason = error instanceof Error ? error.message : String(error);
  const durationMs = deps.elapsed() - run.started;
  deps.runs.finish(
    run.runId,
    { outcome: "failed", reason, ...runRow(run, durationMs) },
    deps.clock.now(),
  );
  deps.logger.warn("heartbeat failed; its events stay queued", { run: run.runId, reason });
  return await unconsumed(run, "failed", reason, durationMs);
}

/** The run log fields of a run in the heartbeat conversation. */
function runRow(run: ClaimedHeartbeat & { conversationId: number }, durationMs: number) {
  return { eventCount: run.events.length, conversationId: run.conversationId, durationMs };
}

/** A run that consumed nothing: post_heartbeat hooks observe the failure, the tick reports it. */
async function unconsumed(
  run: ClaimedHeartbeat,
  outcome: "skipped" | "failed",
  reason: string,
  durationMs: number,
): Promise<HeartbeatReport> {
  const { runId, events, message } = run;
  await run.hooks?.observeHeartbeat({ eventCount: events.length, success: false, error: reason });
  return { runId, outcome, reason, events, message, durationMs };
}

/** Whether this process still owns the run (not closed as abandoned by another one). */
function stillOwned(deps: HeartbeatCommitDependencies, runId: number): boolean {
  return deps.runs.get(runId)?.outcome === "running";
}

function consume(deps: HeartbeatCommitDependencies, run: ClaimedHeartbeat): void {
  deps.queue.markConsumed(run.events.map((event) => event.id), run.runId, deps.clock.now());
}
