/** `radar eval`'s printout: a line per task and the totals a user compares models by. */
import type { EvalReport } from "./eval_runner.ts";
import type { TaskOutcome } from "../core/eval_records.ts";

const percent = (part: number, whole: number) =>
  `${part}/${whole} (${whole ? Math.round(100 * part / whole) : 0} %)`;

/** One line about a task. */
export function formatTaskLine(outcome: TaskOutcome): string {
  const tools = outcome.toolCalls.join(",") || "(no tools)";
  const tokens = outcome.promptTokens + outcome.completionTokens;
  return `${outcome.pass ? "PASS" : "FAIL"}  ${outcome.id.padEnd(18)} ${tools.padEnd(28)} ` +
    `${String(tokens).padStart(6)} tok ${(outcome.latencyMs / 1000).toFixed(1).padStart(6)} s` +
    (outcome.reason ? `  ${outcome.reason}` : "");
}

/** The totals: pass rate, tool-call accuracy, leaked-text-call rate, tokens, latency. */
export function summarize(report: EvalReport) {
  const outcomes = report.outcomes;
  const latencies = outcomes.map((outcome) => outcome.latencyMs).sort((a, b) => a - b);
  return {
    passed: outcomes.filter((outcome) => outcome.pass).length,
    toolsRight: outcomes.filter((outcome) => outcome.toolsRight).length,
    toolResponses: outcomes.reduce((sum, outcome) => sum + outcome.toolResponses, 0),
    leakedResponses: outcomes.reduce((sum, outcome) => sum + outcome.leakedResponses, 0),
    tokens: outcomes.reduce((sum, o) => sum + o.promptTokens + o.completionTokens, 0),
    medianLatencyMs: latencies.length ? latencies[Math.floor(latencies.length / 2)] : 0,
    tasks: outcomes.length,
  };
}

/** The closing lines. */
export function formatSummary(report: EvalReport): string {
  const totals = summarize(report);
  return [
    `model ${report.model} at ${report.server}`,
    `passed ${percent(totals.passed, totals.tasks)} · tool calls right ${
      percent(totals.toolsRight, totals.tasks)
    } · tool calls leaked as text ${percent(totals.leakedResponses, totals.toolResponses)}`,
    `${totals.tokens} tokens · median ${(totals.medianLatencyMs / 1000).toFixed(1)} s per task`,
  ].join("\n");
}
