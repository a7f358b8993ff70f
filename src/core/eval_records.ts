/**
 * `radar eval` results as stored and shown (pure): one task's outcome, a run's record and totals,
 * the store port, and the rates the CLI history and the dashboard print.
 */
import { formatStoredTime } from "./zoned_time.ts";

/** How one task went. */
export interface TaskOutcome {
  id: string;
  pass: boolean;
  /** Why it failed. */
  reason?: string;
  toolCalls: string[];
  /** The expected tools were called (and ran), or none when none were expected. */
  toolsRight: boolean;
  /** Model answers with tool calls, and those among them written as text. */
  toolResponses: number;
  leakedResponses: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Proactive scenarios: the decision expected and the one made (`notify`, `act:pdf_extract`…). */
  expected?: string;
  decision?: string;
}

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
  /** `tasks` (the built-in tasks) or `proactive` (heartbeat scenarios). */
  suite: string;
  /** Proactive: acted or notified when it should have stayed quiet. */
  falseAlarms: number;
  /** Proactive: stayed quiet when it should have acted, notified or asked. */
  misses: number;
}

/**
 * What storing a run takes: the record without its id, and the tasks' outcomes; the suite is
 * `tasks` with no false alarms or misses unless said.
 */
export type NewEvalRun =
  & Omit<EvalRunRecord, "id" | "suite" | "falseAlarms" | "misses">
  & Partial<Pick<EvalRunRecord, "suite" | "falseAlarms" | "misses">>
  & { outcomes: TaskOutcome[] };

/** Port: eval runs (SQLite in production). */
export interface EvalHistory {
  add(run: NewEvalRun): number;
  /** Runs newest first. */
  recent(limit: number): EvalRunRecord[];
  get(id: number): EvalRunRecord | undefined;
  /** A run's task outcomes in the order they ran. */
  outcomes(runId: number): TaskOutcome[];
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

/** One line per run for `radar eval --history` and the dashboard, its time in `timeZone`. */
export function formatHistoryLine(run: EvalRunRecord, timeZone: string | undefined): string {
  const rates = evalRates(run);
  if (run.suite === "proactive") {
    return `#${run.id}  ${
      formatStoredTime(run.startedAt, timeZone, { zone: true })
    }  ${run.model} ` +
      `at ${run.server}  proactive: decisions right ${run.passed}/${run.tasks} ` +
      `(${rates.accuracy}) · false alarms ${run.falseAlarms} · misses ${run.misses} · ${
        run.promptTokens + run.completionTokens
      } tok · median ${(run.medianLatencyMs / 1000).toFixed(1)} s`;
  }
  return `#${run.id}  ${
    formatStoredTime(run.startedAt, timeZone, { zone: true })
  }  ${run.model} at ` +
    `${run.server}  passed ${run.passed}/${run.tasks} (${rates.accuracy}) · tools right ` +
    `${rates.toolAccuracy} · leaked ${rates.leakedRate} · ${
      run.promptTokens + run.completionTokens
    } tok · median ${(run.medianLatencyMs / 1000).toFixed(1)} s`;
}
