/**
 * Scheduled tasks, URL monitors and heartbeat/task runs: the records every surface shows (CLI,
 * dashboard, tools) and the ports tools schedule through (SQLite stores behind them).
 */
import type { CatchUpPolicy } from "./schedule.ts";

/** How a task's schedule is written. */
export type ScheduleKind = "cron" | "every" | "at";

/** One scheduled task. */
export interface TaskRecord {
  id: number;
  name: string;
  message: string;
  scheduleKind: ScheduleKind;
  /** Cron expression (local time), minutes between runs, or the ISO instant of a one-shot. */
  schedule: string;
  catchUp: CatchUpPolicy;
  enabled: boolean;
  createdAt: string;
  nextRunAt?: string;
  lastRunAt?: string;
  lastOutcome?: string;
  lastConversationId?: number;
  /** The personality its runs use; absent: the active one. */
  personality?: string;
}

/** One URL monitor. */
export interface MonitorRecord {
  id: number;
  name: string;
  url: string;
  /** CSS selector of the watched part; empty = the whole page. */
  selector: string;
  everyMinutes: number;
  urgent: boolean;
  enabled: boolean;
  createdAt: string;
  nextCheckAt: string;
  lastCheckedAt?: string;
  lastChangedAt?: string;
  etag?: string;
  lastModified?: string;
  /** The readable text last seen; undefined before the first successful check. */
  content?: string;
  /** Consecutive failed checks. */
  failures: number;
  lastError?: string;
  lastResult?: string;
}

/** How a run ended. */
export type RunOutcome = "running" | "skipped" | "ran" | "failed";

/** One recorded run. */
export interface RunRecord {
  id: number;
  kind: "heartbeat" | "task";
  trigger: "schedule" | "manual";
  taskId?: number;
  pid: number;
  startedAt: string;
  finishedAt?: string;
  outcome: RunOutcome;
  reason: string;
  eventCount: number;
  conversationId?: number;
  promptTokens?: number;
  completionTokens?: number;
  modelMs?: number;
  durationMs?: number;
  tools: string[];
  notifications: number;
  answer: string;
}

/** A scheduled task as tools describe it. */
export type TaskInfo = Pick<
  TaskRecord,
  "id" | "name" | "message" | "scheduleKind" | "schedule" | "enabled" | "nextRunAt" | "lastOutcome"
>;

/** What scheduling a task takes: a message and exactly one of cron, every, at. */
export interface TaskRequest {
  message: string;
  cron?: string;
  /** "30m", "2h", "1d". */
  every?: string;
  /** "2026-12-01 09:00", local time. */
  at?: string;
  name?: string;
  /** Refuse schedules that run more often than this (tasks from the model). */
  minIntervalMinutes?: number;
  /** "model": created by a tool call; runs with read-only tools until the user approves it. */
  origin?: "user" | "model";
  /** The personality its runs use (an existing one); absent: the active one. */
  personality?: string;
}

/** Port: scheduled tasks. */
export interface TaskScheduler {
  add(request: TaskRequest): Promise<TaskInfo | { error: string }>;
  list(): TaskInfo[];
  remove(id: number): boolean;
}

/** A URL monitor as tools describe it. */
export type MonitorInfo = Pick<
  MonitorRecord,
  | "id"
  | "name"
  | "url"
  | "selector"
  | "everyMinutes"
  | "enabled"
  | "failures"
  | "nextCheckAt"
  | "lastResult"
>;

/** What adding a monitor takes. */
export interface MonitorRequest
  extends Partial<Pick<MonitorRecord, "selector" | "name" | "urgent">> {
  url: string;
  /** "60m", "2h", "1d"; default 60m. */
  every?: string;
}

/** Port: URL monitors. */
export interface MonitorRegistry {
  add(request: MonitorRequest): Promise<MonitorInfo | { error: string }>;
  list(): MonitorInfo[];
  remove(id: number): boolean;
}
