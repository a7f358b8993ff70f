/** The stored record of a finished `radar eval` report (types and port: src/core/eval_records.ts). */
import type { EvalReport } from "./eval_runner.ts";
import { summarize } from "./eval_report.ts";
import type { EvalHistory, NewEvalRun } from "../core/eval_records.ts";

/** How a suite is run, printed and stored by `runStored`. */
export interface StoredSuite<Report> {
  /** The first line (what runs). */
  header: string;
  run(): Promise<Report>;
  summary(report: Report): string;
  record(report: Report, startedAt: Date, durationMs: number): NewEvalRun;
  allRight(report: Report): boolean;
}

/**
 * Runs a suite: its header, its report's summary, the run stored (when a history is given);
 * returns the exit code (0 when all went right).
 */
export async function runStored<Report>(
  suite: StoredSuite<Report>,
  options: { write: (line: string) => void; history?: EvalHistory; now?: () => Date },
): Promise<number> {
  options.write(suite.header);
  const startedAt = options.now?.() ?? new Date();
  const started = performance.now();
  const report = await suite.run();
  options.write(suite.summary(report));
  if (options.history) {
    const id = options.history.add(suite.record(report, startedAt, performance.now() - started));
    options.write(`stored as eval run #${id} (radar eval --history; the dashboard's Eval page)`);
  }
  return suite.allRight(report) ? 0 : 1;
}

/** The record of a finished report. */
export function evalRunOf(report: EvalReport, startedAt: Date, durationMs: number): NewEvalRun {
  const totals = summarize(report);
  return {
    startedAt: startedAt.toISOString(),
    model: report.model,
    server: report.server,
    tasks: totals.tasks,
    passed: totals.passed,
    toolsRight: totals.toolsRight,
    toolResponses: totals.toolResponses,
    leakedResponses: totals.leakedResponses,
    promptTokens: report.outcomes.reduce((sum, outcome) => sum + outcome.promptTokens, 0),
    completionTokens: report.outcomes.reduce((sum, outcome) => sum + outcome.completionTokens, 0),
    medianLatencyMs: totals.medianLatencyMs,
    durationMs: Math.round(durationMs),
    outcomes: report.outcomes,
  };
}
