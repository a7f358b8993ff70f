/** Stored `radar eval` runs: the port, the record shapes, and the report → record mapping. */
import type { EvalReport, TaskOutcome } from "./eval_runner.ts";
import { summarize } from "./eval_report.ts";

/** One stored eval run with its totals. */
export interface EvalRunRecord {
  id: number;
  startedAt: string;
  model: string;
  server: string;
  tasks: number;
  passed: number;
  /** Tasks whose expected tools were called (tool-call accuracy). */
  toolsRight: number;
  /** Model answers that called tools, and those that wrote the call as text (leaked). */
  toolResponses: number;
  leakedResponses: number;
  promptTokens: number;
  completionTokens: number;
  medianLatencyMs: number;
  durationMs: number;
}

/** What storing a run takes: the record without its id, and the tasks' outcomes. */
export type NewEvalRun = Omit<EvalRunRecord, "id"> & { outcomes: TaskOutcome[] };

/** Port: eval runs (SQLite in production). */
export interface EvalHistory {
  add(run: NewEvalRun): number;
  /** Runs newest first. */
  recent(limit: number): EvalRunRecord[];
  get(id: number): EvalRunRecord | undefined;
  /** A run's task outcomes in the order they ran. */
  outcomes(runId: number): TaskOutcome[];
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

const percent = (part: number, whole: number) =>
  whole ? `${Math.round(100 * part / whole)} %` : "–";

/** Rates of a run as the history and the dashboard show them. */
export function evalRates(run: EvalRunRecord) {
  return {
    accuracy: percent(run.passed, run.tasks),
    toolAccuracy: percent(run.toolsRight, run.tasks),
    leakedRate: percent(run.leakedResponses, run.toolResponses),
  };
}

/** One line per run for `radar eval --history`. */
export function formatHistoryLine(run: EvalRunRecord): string {
  const rates = evalRates(run);
  return `#${run.id}  ${run.startedAt.slice(0, 16).replace("T", " ")}  ${run.model} at ` +
    `${run.server}  passed ${run.passed}/${run.tasks} (${rates.accuracy}) · tools right ` +
    `${rates.toolAccuracy} · leaked ${rates.leakedRate} · ${
      run.promptTokens + run.completionTokens
    } tok · median ${(run.medianLatencyMs / 1000).toFixed(1)} s`;
}
