/** Pure scheduling rules shared by tasks and monitors: durations, catch-up and backoff. */
import { maxEveryMinutes } from "./bounds.ts";

/**
 * Parses "90s", "15m", "2h", "1d" (or plain minutes) into whole minutes; undefined if invalid or
 * longer than `maxEveryMinutes` (a year: "99999999999d" once made every check throw).
 */
export function parseDurationMinutes(text: string): number | undefined {
  const match = text.trim().toLowerCase().match(/^(\d+(?:\.\d+)?)\s*(s|m|min|h|d)?$/);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2] ?? "m";
  const minutes = unit === "s"
    ? value / 60
    : unit === "h"
    ? value * 60
    : unit === "d"
    ? value * 1440
    : value;
  const rounded = Math.round(minutes);
  return rounded >= 1 && rounded <= maxEveryMinutes ? rounded : undefined;
}

/** Formats minutes as a short duration ("45m", "2h", "1d 3h"). */
export function formatDurationMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 1440) {
    const rest = minutes % 60;
    return `${Math.floor(minutes / 60)}h${rest ? ` ${rest}m` : ""}`;
  }
  const hours = Math.floor((minutes % 1440) / 60);
  return `${Math.floor(minutes / 1440)}d${hours ? ` ${hours}h` : ""}`;
}

/** What to do with a missed run: run once if missed within the window, else skip it. */
export type CatchUpPolicy = "once_within_24h" | "skip";

/** Catch-up policies accepted by tasks. */
export const catchUpPolicies: readonly CatchUpPolicy[] = ["once_within_24h", "skip"];

/** A run is "on time" when at most this late (cron ticks and slow ticks add delay). */
const onTimeGraceMs = 5 * 60_000;

/** What a due check says about a scheduled run. */
export type DueAction = "wait" | "run" | "skip_missed";

/**
 * Decides about a task's stored next run: not yet due → wait; due within the grace → run;
 * later than that (the daemon was down) → run once if the policy allows, else skip. Whatever
 * happens, the caller then schedules the next run after `now`, so missed runs never burst.
 */
export function dueAction(nextRunAt: Date, now: Date, policy: CatchUpPolicy): DueAction {
  const late = now.getTime() - nextRunAt.getTime();
  if (late < 0) return "wait";
  if (late <= onTimeGraceMs) return "run";
  if (policy === "once_within_24h" && late <= 24 * 60 * 60_000) return "run";
  return "skip_missed";
}

/** Failures after which a monitor is flagged as failing. */
export const failingThreshold = 5;

/** True when a monitor has failed often enough to be flagged (dashboard, CLI, status). */
export function isFailing(monitor: { failures: number }): boolean {
  return monitor.failures >= failingThreshold;
}

/**
 * The delay before the next check after `failures` consecutive failures: the normal interval
 * doubled per failure, capped at a day (or the interval, when that is longer).
 */
export function backoffMinutes(everyMinutes: number, failures: number): number {
  if (failures <= 0) return everyMinutes;
  const cap = Math.max(everyMinutes, 1440);
  return Math.min(cap, everyMinutes * 2 ** Math.min(failures, 16));
}
