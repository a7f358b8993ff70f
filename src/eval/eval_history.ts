/** The stored record of a finished `radar eval` report (types and port: src/core/eval_records.ts). */
import type { EvalReport } from "./eval_runner.ts";
import { summarize } from "./eval_report.ts";
import type { NewEvalRun } from "../core/eval_records.ts";

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
