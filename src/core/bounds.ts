/**
 * Upper (and lower) bounds on every duration and count a person, config file, model tool call
 * or dashboard form can give. One place, so the CLI, the config schema, tools and the dashboard
 * refuse the same values with the same words.
 */
import { UsageError } from "./errors.ts";

/** The longest repeat interval of a task or monitor: one year (in minutes). */
export const maxEveryMinutes = 366 * 24 * 60;

/** The shortest repeat interval of a task or monitor, in minutes. */
export const minEveryMinutes = 1;

/** How far ahead a one-shot task (`--at`) may be scheduled: ten years, in milliseconds. */
export const maxAtAheadMs = 10 * 366 * 24 * 60 * 60_000;

/** The most rows any list command or page returns at once (history, memory, log, runs). */
const maxListLimit = 1000;

/** The most log lines `radar logs -n` prints. */
export const maxLogLines = 10_000;

/** The deepest offset a paged list may start at (deeper pages: narrow the search instead). */
export const maxListOffset = 10_000;

/**
 * History search looks at most this many of the newest matching messages (and titles): a query
 * time budget by construction — a word in every message cannot make one search scan them all.
 */
export const maxSearchHits = 2_000;

/** The longest search text kept (longer input is cut). */
export const maxSearchChars = 200;

/** Parses "90s", "15m", "2h", "1d" (or plain minutes) into whole minutes; undefined if invalid. */
function durationMinutes(text: string): number | undefined {
  const match = text.trim().toLowerCase().match(/^(\d{1,12}(?:\.\d{1,6})?)\s*(s|m|min|h|d)?$/);
  if (!match) return undefined;
  const value = Number(match[1]);
  const factor = { s: 1 / 60, m: 1, min: 1, h: 60, d: 1440 }[match[2] ?? "m"] ?? 1;
  return Math.round(value * factor);
}

/**
 * Why a repeat interval is refused, or undefined when it is within bounds (or not a duration at
 * all: the parser then says what a duration looks like). `name` is how the input is called
 * ("--every", "every").
 */
export function everyProblem(text: string, name: string): string | undefined {
  const minutes = durationMinutes(text);
  if (minutes === undefined) return undefined;
  if (minutes > maxEveryMinutes) return `${name} must be at most 366d, not "${text.trim()}"`;
  if (minutes < minEveryMinutes) return `${name} must be at least 1m, not "${text.trim()}"`;
  return undefined;
}

/** Why a list limit is refused (outside 1…`max`), or undefined when it is fine. */
export function limitProblem(value: number, name: string, max = maxListLimit): string | undefined {
  if (!Number.isInteger(value) || value < 1) return `${name} must be a positive whole number`;
  if (value > max) return `${name} must be at most ${max}, not ${value}`;
  return undefined;
}

/** Returns `value` when it is within 1…`max`; else throws a one-line UsageError (exit 2). */
export function checkLimit(value: number, name: string, max = maxListLimit): number {
  const problem = limitProblem(value, name, max);
  if (problem) throw new UsageError(problem);
  return value;
}

/** Clamps a list limit and offset into their bounds (for pages that must not fail). */
export function boundedPage(limit: number, offset = 0): { limit: number; offset: number } {
  return {
    limit: Math.max(1, Math.min(maxListLimit, Math.floor(limit) || 1)),
    offset: Math.max(0, Math.min(maxListOffset, Math.floor(offset) || 0)),
  };
}

/** The longest timeout any config key may set: one day (setTimeout overflows past ~24.8 days). */
export const maxTimeoutSeconds = 86_400;

/** The largest character count a config key may set (tool results, outputs, page text). */
export const maxConfigChars = 10_000_000;

/** The largest byte count a config key may set (file reads). */
export const maxConfigBytes = 100 * 1024 * 1024;

/** The largest token count a config key may set. */
export const maxConfigTokens = 10_000_000;

/** The longest retention a config key may set: about a hundred years. */
export const maxRetentionDays = 36_500;

/** The most PDF pages a config key may ask for at either end of a document. */
export const maxConfigPages = 10_000;

/** The most processes a sandboxed command may be allowed (RLIMIT_NPROC). */
export const maxProcesses = 100_000;

/** The most memory a plugin host or sandboxed command may be given, in MB. */
export const maxMemoryMb = 65_536;
