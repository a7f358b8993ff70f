/** One line of `radar doctor`: what was checked, the verdict, and the fix when there is one. */

/** ok: fine; warn: works, but worth fixing; fail: broken; skip: not checked (and why). */
export type VerdictLevel = "ok" | "warn" | "fail" | "skip";

/** One verdict. */
export interface Verdict {
  /** What was checked, one word: config, data, database, server, model, tools, context, … */
  check: string;
  level: VerdictLevel;
  /** What was found, one line. */
  summary: string;
  /** What to do about it, one line. */
  fix?: string;
  /** True when Radar cannot work until this is fixed (the exit code says so). */
  blocks?: boolean;
}

/** A verdict of `level` for `check`. */
export function verdict(
  check: string,
  level: VerdictLevel,
  summary: string,
  extra: { fix?: string; blocks?: boolean } = {},
): Verdict {
  return { check, level, summary, ...extra };
}

/** A failure Radar cannot work with. */
export function blocking(check: string, summary: string, fix: string): Verdict {
  return { check, level: "fail", summary, fix, blocks: true };
}
