/**
 * Ports of the scheduled work (src/application/): the event queue, the run log, task and monitor
 * storage, the outbox, task claims and origins, and one transaction. SQLite implements them
 * (src/adapters/sqlite/); the application never sees a database.
 */
import type { PendingEvent } from "./heartbeat.ts";
import type { SideEffectRecord, SideEffectResult } from "./side_effects.ts";
import type { BackgroundKind, SpentTokens } from "./budget.ts";
import type { MonitorRecord, RunOutcome, RunRecord, TaskRecord } from "./schedule_ports.ts";

/** Work done on a tick before the heartbeat (tasks, monitors, sources). Must not throw. */
export interface TickJob {
  name: string;
  run(now: Date, signal: AbortSignal): Promise<void>;
}

/** Runs `work` in one transaction: all of it commits, or none. */
export type Transaction = <T>(work: () => T) => T;

/** An event as a source hands it to the queue. */
export interface NewEvent
  extends
    Pick<PendingEvent, "source" | "kind" | "summary" | "detail">,
    Partial<Pick<PendingEvent, "urgent">> {
  /** While an event with this key is pending, another with the same key is dropped. */
  dedupeKey?: string;
}

/** What finishing a run records: its outcome and any field the claim did not set. */
export interface RunFinish extends
  Partial<
    Omit<RunRecord, "id" | "kind" | "trigger" | "taskId" | "pid" | "startedAt" | "finishedAt">
  > {
  outcome: Exclude<RunOutcome, "running">;
}

/** A claimed run, or the live process that holds the claim. */
export type RunClaim = { runId: number } | { heldBy: number };

/** A new task. */
export interface NewTask
  extends
    Pick<TaskRecord, "name" | "message" | "scheduleKind" | "schedule" | "catchUp" | "personality"> {
  nextRunAt?: Date;
}

/** A new monitor. */
export interface NewMonitor
  extends Pick<MonitorRecord, "name" | "url" | "selector" | "everyMinutes" | "urgent"> {
  nextCheckAt: Date;
}

/** What a successful check stores. */
export interface CheckSuccess {
  at: Date;
  nextCheckAt: Date;
  result: string;
  /** New text; undefined keeps the stored one (304 Not Modified). */
  content?: string;
  changed: boolean;
  etag?: string;
  lastModified?: string;
}

/**
 * Where a side effect stands: claimed (about to happen, or cut short by a crash: maybe done),
 * sent, or failed for sure (its key may be claimed again by a retry).
 */
export type OutboxState = "claimed" | "sent" | "failed" | "undeliverable";

/** One recorded side effect, with what it sent and how it ended. */
export interface OutboxEntry extends SideEffectRecord, SideEffectResult {
  key: string;
  kind: string;
  summary: string;
  state: OutboxState;
  /** When it was (last) claimed. */
  createdAt: string;
  sentAt?: string;
  /** When the last attempt ended (sent or failed). */
  finishedAt?: string;
  /** Claims so far (a failed one retried counts again). */
  attempts: number;
  pid: number;
}

/** A scheduled run that was claimed. */
export interface TaskClaim {
  taskId: number;
  runId: number;
  /** The due time the run was for (its outbox scope). */
  dueAt: string;
  /** The conversation the run writes in (a retry after a crash continues it). */
  conversationId?: number;
}

/** A task's origin; tasks without a row were created by the user (CLI, dashboard). */
export interface TaskOrigin {
  origin: "user" | "model";
  approvedAt?: string;
}

/** Port: events waiting for the next heartbeat. */
export interface EventQueue {
  /** Undefined when a pending event with the same dedupe key already waits. */
  enqueue(event: NewEvent, at: Date): number | undefined;
  pending(limit: number): PendingEvent[];
  pendingCount(): number;
  markConsumed(ids: readonly number[], runId: number, at: Date): void;
  pruneConsumed(before: Date): number;
  /**
   * Counts a hook-blocked heartbeat against these pending events; those blocked `limit` times
   * are set aside (out of the queue, with `reason`). Returns how many were set aside.
   */
  markBlocked(
    ids: readonly number[],
    runId: number,
    reason: string,
    at: Date,
    limit: number,
  ): number;
  /** Events set aside because hooks blocked their heartbeats: how many, and the newest reason. */
  setAside(): { count: number; lastReason?: string };
  /** The newest `limit` set-aside events. */
  setAsideEvents(limit: number): PendingEvent[];
  /** Puts every set-aside event back in the queue (`radar heartbeat requeue`); returns how many. */
  requeueSetAside(): number;
}

/** Who claims a run, when, and how to tell whether an earlier claimant still lives. */
export type ClaimRequest = [
  trigger: RunRecord["trigger"],
  at: Date,
  pid: number,
  isAlive: (pid: number) => boolean,
];

/** Port: heartbeat and task runs, claimed while running. */
export interface RunLog {
  claimHeartbeat(...claim: ClaimRequest): RunClaim;
  claimTask(taskId: number, ...claim: ClaimRequest): RunClaim;
  recordSkipped(trigger: RunRecord["trigger"], at: Date, pid: number, reason: string): number;
  /** Closes runs of dead processes as interrupted; returns how many. */
  closeAbandoned(at: Date, isAlive: (pid: number) => boolean): number;
  finish(id: number, finish: RunFinish, at: Date): void;
  get(id: number): RunRecord | undefined;
  recent(limit: number, options?: { kind?: RunRecord["kind"]; skipped?: boolean }): RunRecord[];
  lastScheduledHeartbeat(): Date | undefined;
  totals(
    since: Date,
  ): { runs: number; ran: number; promptTokens: number; completionTokens: number };
  pruneSkipped(before: Date): number;
  /** Records a background model call's tokens (summaries, digests) for the budget. */
  recordBackgroundCall(call: BackgroundModelCall): void;
  /** Tokens of every run and background model call since `since` that spent any (budgets). */
  spentSince(since: Date): SpentTokens[];
}

/** One unattended model call outside a run: a conversation summary or a digest. */
export interface BackgroundModelCall {
  kind: BackgroundKind;
  startedAt: Date;
  promptTokens: number;
  completionTokens: number;
  /** What it was for ("conversation 12", "day 2026-11-23"). */
  detail?: string;
}

/** What task and monitor storage share: rows by id, and the ones due at a time. */
export interface ScheduledRows<Row, NewRow> {
  add(row: NewRow, at: Date): number;
  get(id: number): Row | undefined;
  list(): Row[];
  due(now: Date): Row[];
  remove(id: number): boolean;
}

/** Port: scheduled tasks. */
export interface TaskStore extends ScheduledRows<TaskRecord, NewTask> {
  setEnabled(id: number, enabled: boolean, nextRunAt: Date | undefined): boolean;
  setNextRun(id: number, nextRunAt: Date | undefined): void;
  recordRun(
    id: number,
    run: { at: Date; outcome: string; conversationId?: number; nextRunAt?: Date },
  ): void;
}

/** Port: URL monitors. */
export interface MonitorStore extends ScheduledRows<MonitorRecord, NewMonitor> {
  setEnabled(id: number, enabled: boolean, nextCheckAt: Date): boolean;
  recordSuccess(id: number, check: CheckSuccess): void;
  recordFailure(
    id: number,
    failure: { at: Date; error: string; failures: number; nextCheckAt: Date },
  ): void;
}

/** Port: side effects claimed before they happen, so a re-delivered run does not repeat them. */
export interface Outbox {
  /**
   * Records `key` unless it exists (a failed one is claimed again); returns the existing entry,
   * or undefined when claimed now.
   */
  claim(
    entry: { key: string; kind: string; summary: string; at: Date; pid: number } & SideEffectRecord,
  ): OutboxEntry | undefined;
  markSent(key: string, at: Date, result?: SideEffectResult): void;
  /** The action certainly did not happen: recorded as failed, so a retry may claim it again. */
  markFailed(key: string, at: Date, result?: SideEffectResult): void;
  get(key: string): OutboxEntry | undefined;
  /** The newest entries (of `kind`), newest first. */
  recent(limit: number, kind?: string): OutboxEntry[];
  /** The entries of one run's scope (`task:3:due:…`), oldest first. */
  inScope(scope: string): OutboxEntry[];
  /** Failed entries of `kind` (their keys free for a retry), oldest first. */
  failed(kind: string, limit: number): OutboxEntry[];
  /** A failed entry Radar stops retrying: it is undeliverable. */
  markUndeliverable(key: string, at: Date): void;
  /** How many entries of `kind` became undeliverable since `since`, and the newest of them. */
  undeliverable(kind: string, since: Date): { count: number; latest?: OutboxEntry };
  prune(before: Date): number;
}

/** Port: which scheduled task runs are claimed (a crash leaves them to retry once). */
export interface TaskClaims {
  record(claim: TaskClaim, at: Date): void;
  clear(taskId: number, runId?: number): void;
  interrupted(): TaskClaim[];
}

/** Port: who created a task, and whether a model-made task was approved. */
export interface TaskOrigins {
  recordModelTask(taskId: number): void;
  get(taskId: number): TaskOrigin;
  approve(taskId: number, at: Date): boolean;
}
