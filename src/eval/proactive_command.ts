/**
 * `radar eval --suite proactive`: runs the heartbeat scenarios, prints a line per scenario and the
 * score (decisions right, false alarms and misses apart), and stores the run for this model.
 */
import type { EvalHistory, NewEvalRun, TaskOutcome } from "../core/eval_records.ts";
import { type ProactiveReport, runProactive } from "./proactive_runner.ts";
import { proactiveScenarios } from "./proactive_scenarios.ts";
import type { ScratchOptions } from "./scratch_home.ts";
import { runStored } from "./eval_history.ts";

/** What the suite's command takes: the run's environment, config, model and server, and these. */
export interface ProactiveCommandOptions extends ScratchOptions {
  /** Only the tasks (or scenarios) whose id contains this. */
  only?: string;
  write: (line: string) => void;
  /** Where the run is stored (absent: not stored). */
  history?: EvalHistory;
  /** Wall clock of the run's date (default now). */
  now?: () => Date;
}

/** One line about a scenario. */
export function formatScenarioLine(outcome: TaskOutcome): string {
  const tokens = outcome.promptTokens + outcome.completionTokens;
  return `${outcome.pass ? "RIGHT" : "WRONG"}  ${outcome.id.padEnd(22)} expected ` +
    `${(outcome.expected ?? "").padEnd(16)} did ${(outcome.decision ?? "-").padEnd(18)} ` +
    `${String(tokens).padStart(6)} tok ${(outcome.latencyMs / 1000).toFixed(1).padStart(6)} s` +
    (outcome.reason && !outcome.pass ? `  ${outcome.reason}` : "");
}

const percent = (part: number, whole: number) =>
  `${part}/${whole} (${whole ? Math.round(100 * part / whole) : 0} %)`;

/** The closing lines. */
export function formatProactiveSummary(report: ProactiveReport): string {
  const { totals } = report;
  const tokens = report.outcomes.reduce((sum, o) => sum + o.promptTokens + o.completionTokens, 0);
  return [
    `model ${report.model} at ${report.server}`,
    `decisions right ${percent(totals.right, totals.scenarios)} · false alarms ` +
    `${totals.falseAlarms} · misses ${totals.misses} · otherwise wrong ${totals.wrong}`,
    `${tokens} tokens · median ${
      (medianLatency(report.outcomes) / 1000).toFixed(1)
    } s per scenario`,
  ].join("\n");
}

function medianLatency(outcomes: readonly TaskOutcome[]): number {
  const sorted = outcomes.map((outcome) => outcome.latencyMs).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

/** The stored record of a proactive run. */
export function proactiveRunOf(
  report: ProactiveReport,
  startedAt: Date,
  durationMs: number,
): NewEvalRun {
  const { outcomes, totals } = report;
  return {
    startedAt: startedAt.toISOString(),
    model: report.model,
    server: report.server,
    tasks: totals.scenarios,
    passed: totals.right,
    toolsRight: totals.right,
    toolResponses: outcomes.reduce((sum, outcome) => sum + outcome.toolResponses, 0),
    leakedResponses: outcomes.reduce((sum, outcome) => sum + outcome.leakedResponses, 0),
    promptTokens: outcomes.reduce((sum, outcome) => sum + outcome.promptTokens, 0),
    completionTokens: outcomes.reduce((sum, outcome) => sum + outcome.completionTokens, 0),
    medianLatencyMs: medianLatency(outcomes),
    durationMs: Math.round(durationMs),
    suite: "proactive",
    falseAlarms: totals.falseAlarms,
    misses: totals.misses,
    outcomes,
  };
}

/** Runs the suite; exit code 0 when every decision was right. */
export async function runProactiveCommand(options: ProactiveCommandOptions): Promise<number> {
  const scenarios = proactiveScenarios.filter((item) =>
    !options.only || item.id.includes(options.only)
  );
  return await runStored({
    header: `radar eval --suite proactive: ${scenarios.length} heartbeat scenarios, each in a ` +
      "scratch home",
    run: () =>
      runProactive({
        ...options,
        scenarios,
        onScenario: (outcome) => options.write(formatScenarioLine(outcome)),
      }),
    summary: formatProactiveSummary,
    record: proactiveRunOf,
    allRight: (report) => report.totals.right === report.totals.scenarios,
  }, options);
}
