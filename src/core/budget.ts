/**
 * Budgets for unattended work (`budget:`): tokens heartbeats, tasks, conversation summaries,
 * digests, money categorisation and vision calls may spend per local day, together, and each task
 * on its own. Pure: local days, the verdict for one run, the report `radar status`,
 * `radar task log` and the dashboard show.
 */
import { formatDate, startOfZonedDay } from "./zoned_time.ts";
import type { Usage } from "./chat_model.ts";

/** The configured limits (0 means none). */
export interface BudgetLimits {
  /** Every model call but a person's own chat turns, together, per local day. */
  dailyTokens: number;
  /** Each task on its own, per local day. */
  taskDailyTokens: number;
}

/**
 * Model calls that are not a run's own turns: conversation summaries, digests, money
 * categorisation, and vision calls (scanned pages, comic covers, the browser's look) wherever
 * they are made.
 */
export type BackgroundKind = "summary" | "digest" | "money" | "vision";

/** Tokens one finished run or background model call spent (a row of the run log). */
export interface SpentTokens {
  kind: "heartbeat" | "task" | BackgroundKind;
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
export type UnattendedRun =
  | { kind: "heartbeat" }
  | { kind: "task"; taskId: number }
  | { kind: BackgroundKind };

/** Why a run is paused: which limit, how much was used, when it resumes. */
export interface BudgetPause {
  scope: "daily" | "task";
  taskId?: number;
  used: number;
  limit: number;
  day: string;
  resumesAt: Date;
}

/** One day's tokens by kind of unattended work. */
export interface SpendingByKind {
  heartbeatTokens: number;
  taskTokens: number;
  /** Conversation summaries. */
  summaryTokens: number;
  /** Daily and weekly digests. */
  digestTokens: number;
  /** Money categorisation. */
  moneyTokens: number;
  /** Vision calls: scanned pages, comic covers, the browser's look. */
  visionTokens: number;
}

/** Today's spending against the limits, and the days before. */
export interface BudgetReport extends SpendingByKind {
  day: string;
  resumesAt: string;
  limits: BudgetLimits;
  /** Tokens per task today, largest first. */
  byTask: Array<{ taskId: number; tokens: number; paused: boolean }>;
  /** Set when the daily limit stops every unattended run. */
  paused?: BudgetPause;
  /** The last days, newest first (today included). */
  days: Array<{ day: string } & SpendingByKind>;
}

/** The local day `at` falls on: its first instant and the next day's (DST days included). */
export function localDay(at: Date, timeZone?: string): LocalDay {
  return {
    key: formatDate(at, timeZone),
    start: startOfZonedDay(at, timeZone),
    end: startOfZonedDay(at, timeZone, 1),
  };
}

/** No tokens yet. */
function noSpending(): SpendingByKind {
  return {
    heartbeatTokens: 0,
    taskTokens: 0,
    summaryTokens: 0,
    digestTokens: 0,
    moneyTokens: 0,
    visionTokens: 0,
  };
}

/** Adds one run's tokens to its kind's total. */
function addSpending(total: SpendingByKind, run: SpentTokens): void {
  if (run.kind === "task") total.taskTokens += run.tokens;
  else if (run.kind === "summary") total.summaryTokens += run.tokens;
  else if (run.kind === "digest") total.digestTokens += run.tokens;
  else if (run.kind === "money") total.moneyTokens += run.tokens;
  else if (run.kind === "vision") total.visionTokens += run.tokens;
  else total.heartbeatTokens += run.tokens;
}

/** Every kind together: what `budget.daily_tokens` is compared with. */
export function totalTokens(spending: SpendingByKind): number {
  return spending.heartbeatTokens + spending.taskTokens + spending.summaryTokens +
    spending.digestTokens + spending.moneyTokens + spending.visionTokens;
}

/** Today's tokens: by kind, and per task. */
export function spentToday(
  spent: readonly SpentTokens[],
  day: LocalDay,
): SpendingByKind & { byTask: Map<number, number> } {
  const total = noSpending();
  const byTask = new Map<number, number>();
  for (const run of spent) {
    const at = Date.parse(run.startedAt);
    if (at < day.start.getTime() || at >= day.end.getTime()) continue;
    addSpending(total, run);
    if (run.kind === "task" && run.taskId !== undefined) {
      byTask.set(run.taskId, (byTask.get(run.taskId) ?? 0) + run.tokens);
    }
  }
  return { ...total, byTask };
}

/** Whether `run` must wait for tomorrow: the daily limit first, then the task's own. */
export function budgetPause(
  limits: BudgetLimits,
  spent: readonly SpentTokens[],
  day: LocalDay,
  run: UnattendedRun,
): BudgetPause | undefined {
  const today = spentToday(spent, day);
  const used = totalTokens(today);
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
    ? "heartbeats, tasks, digests, summaries and money categories are paused"
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
  const { byTask: taskTotals, ...spending } = spentToday(spent, today);
  const paused = budgetPause(limits, spent, today, { kind: "heartbeat" });
  const byTask = [...taskTotals].map(([taskId, tokens]) => ({
    taskId,
    tokens,
    paused: paused !== undefined ||
      (limits.taskDailyTokens > 0 && tokens >= limits.taskDailyTokens),
  })).sort((a, b) => b.tokens - a.tokens);
  const perDay = new Map<string, { day: string } & SpendingByKind>();
  let cursor = today;
  for (let index = 0; index < days; index++) {
    perDay.set(cursor.key, { day: cursor.key, ...noSpending() });
    cursor = localDay(new Date(cursor.start.getTime() - 1000), timeZone);
  }
  for (const run of spent) {
    const entry = perDay.get(formatDate(new Date(run.startedAt), timeZone));
    if (entry) addSpending(entry, run);
  }
  return {
    day: today.key,
    resumesAt: today.end.toISOString(),
    limits,
    ...spending,
    byTask,
    paused,
    days: [...perDay.values()],
  };
}

/** 12,345 */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * What unattended background work (conversation summaries, digests, money categories) asks of the
 * budget: whether
 * it must wait (the one line why; the first time per limit and day notifies) and what a model
 * call spent (from the server's usage).
 */
export interface BackgroundBudget {
  pausedFor(run: { kind: BackgroundKind }): string | undefined;
  spent(kind: BackgroundKind, usage: Usage | undefined, startedAt: Date, detail: string): void;
}
