/**
 * Budgets for unattended work (`budget:`): tokens heartbeats and tasks may spend per local day,
 * together and per task. Pure: local days, the verdict for one run, the report `radar status`,
 * `radar task log` and the dashboard show.
 */
import { formatDate, startOfZonedDay } from "./zoned_time.ts";

/** The configured limits (0 means none). */
export interface BudgetLimits {
  /** Heartbeats and tasks together, per local day. */
  dailyTokens: number;
  /** Each task on its own, per local day. */
  taskDailyTokens: number;
}

/** Tokens one finished run spent (a row of the run log). */
export interface SpentTokens {
  kind: "heartbeat" | "task";
  taskId?: number;
  /** ISO time the run started (it counts on that local day). */
  startedAt: string;
  tokens: number;
}

/** A local calendar day in a time zone: its name and the instants it starts and ends. */
export interface LocalDay {
  /** "2026-11-23". */
  key: string;
  start: Date;
  end: Date;
}

/** The run about to start unattended. */
export type UnattendedRun = { kind: "heartbeat" } | { kind: "task"; taskId: number };

/** Why a run is paused: which limit, how much was used, when it resumes. */
export interface BudgetPause {
  scope: "daily" | "task";
  taskId?: number;
  used: number;
  limit: number;
  day: string;
  resumesAt: Date;
}

/** Today's spending against the limits, and the days before. */
export interface BudgetReport {
  day: string;
  resumesAt: string;
  limits: BudgetLimits;
  heartbeatTokens: number;
  taskTokens: number;
  /** Tokens per task today, largest first. */
  byTask: Array<{ taskId: number; tokens: number; paused: boolean }>;
  /** Set when the daily limit stops every unattended run. */
  paused?: BudgetPause;
  /** The last days, newest first (today included). */
  days: Array<{ day: string; heartbeatTokens: number; taskTokens: number }>;
}

/** "2026-11-23" of `at` in `timeZone` (undefined: the system's). */
export function localDayKey(at: Date, timeZone?: string): string {
  return formatDate(at, timeZone);
}

/** The local day `at` falls on: its first instant and the next day's (DST days included). */
export function localDay(at: Date, timeZone?: string): LocalDay {
  return {
    key: formatDate(at, timeZone),
    start: startOfZonedDay(at, timeZone),
    end: startOfZonedDay(at, timeZone, 1),
  };
}

/** Today's tokens: heartbeats, tasks, and per task. */
export function spentToday(spent: readonly SpentTokens[], day: LocalDay) {
  let heartbeatTokens = 0;
  let taskTokens = 0;
  const byTask = new Map<number, number>();
  for (const run of spent) {
    const at = Date.parse(run.startedAt);
    if (at < day.start.getTime() || at >= day.end.getTime()) continue;
    if (run.kind === "task") {
      taskTokens += run.tokens;
      if (run.taskId !== undefined) {
        byTask.set(run.taskId, (byTask.get(run.taskId) ?? 0) + run.tokens);
      }
    } else {
      heartbeatTokens += run.tokens;
    }
  }
  return { heartbeatTokens, taskTokens, byTask };
}

/** Whether `run` must wait for tomorrow: the daily limit first, then the task's own. */
export function budgetPause(
  limits: BudgetLimits,
  spent: readonly SpentTokens[],
  day: LocalDay,
  run: UnattendedRun,
): BudgetPause | undefined {
  const today = spentToday(spent, day);
  const used = today.heartbeatTokens + today.taskTokens;
  const base = { day: day.key, resumesAt: day.end };
  if (limits.dailyTokens > 0 && used >= limits.dailyTokens) {
    return { scope: "daily", used, limit: limits.dailyTokens, ...base };
  }
  if (run.kind === "task" && limits.taskDailyTokens > 0) {
    const taskUsed = today.byTask.get(run.taskId) ?? 0;
    if (taskUsed >= limits.taskDailyTokens) {
      return {
        scope: "task",
        taskId: run.taskId,
        used: taskUsed,
        limit: limits.taskDailyTokens,
        ...base,
      };
    }
  }
  return undefined;
}

/** One line for a pause: what stopped, how much, until when (local time as given). */
export function describePause(pause: BudgetPause, resumes: string): string {
  const what = pause.scope === "daily"
    ? "heartbeats and tasks are paused"
    : `task #${pause.taskId} is paused`;
  const key = pause.scope === "daily" ? "budget.daily_tokens" : "budget.task_daily_tokens";
  return `${what}: ${formatTokens(pause.used)} of ${formatTokens(pause.limit)} tokens used today ` +
    `(${key}); they resume ${resumes}`;
}

/** The budget report over the runs of the last `days` local days. */
export function budgetReport(
  limits: BudgetLimits,
  spent: readonly SpentTokens[],
  now: Date,
  timeZone?: string,
  days = 7,
): BudgetReport {
  const today = localDay(now, timeZone);
  const spending = spentToday(spent, today);
  const paused = budgetPause(limits, spent, today, { kind: "heartbeat" });
  const byTask = [...spending.byTask].map(([taskId, tokens]) => ({
    taskId,
    tokens,
    paused: paused !== undefined ||
      (limits.taskDailyTokens > 0 && tokens >= limits.taskDailyTokens),
  })).sort((a, b) => b.tokens - a.tokens);
  const perDay = new Map<string, { day: string; heartbeatTokens: number; taskTokens: number }>();
  let cursor = today;
  for (let index = 0; index < days; index++) {
    perDay.set(cursor.key, { day: cursor.key, heartbeatTokens: 0, taskTokens: 0 });
    cursor = localDay(new Date(cursor.start.getTime() - 1000), timeZone);
  }
  for (const run of spent) {
    const entry = perDay.get(localDayKey(new Date(run.startedAt), timeZone));
    if (!entry) continue;
    if (run.kind === "task") entry.taskTokens += run.tokens;
    else entry.heartbeatTokens += run.tokens;
  }
  return {
    day: today.key,
    resumesAt: today.end.toISOString(),
    limits,
    heartbeatTokens: spending.heartbeatTokens,
    taskTokens: spending.taskTokens,
    byTask,
    paused,
    days: [...perDay.values()],
  };
}

/** 12,345 */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
