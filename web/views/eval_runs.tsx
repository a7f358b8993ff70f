/** The eval page's tables: stored `radar eval` runs (both suites), and one run's tasks or scenarios. */
import { evalRates, type EvalRunRecord, type TaskOutcome } from "../../src/core/eval_records.ts";
import { formatDuration, formatTime, truncate } from "./format.ts";
import { Table } from "./table.tsx";

/** Stored runs, newest first, each linking to its tasks. */
export function EvalRunTable(props: { runs: EvalRunRecord[]; timeZone: string | undefined }) {
  if (!props.runs.length) {
    return <p class="muted">No eval runs stored yet. Run `radar eval` to score your model.</p>;
  }
  return (
    <Table
      class="list eval-runs"
      columns={[
        "run",
        "when",
        "model",
        "suite",
        "right",
        "tool calls right · false alarms",
        "leaked as text · misses",
        "tokens",
        "median per task",
      ]}
    >
      {props.runs.map((run) => {
        const rates = evalRates(run);
        return (
          <tr>
            <td>
              <a href={`/eval/${run.id}`}>#{run.id}</a>
            </td>
            <td class="muted">{formatTime(run.startedAt, props.timeZone)}</td>
            <td>
              <code>{truncate(run.model, 60)}</code>{" "}
              <span class="muted">{truncate(run.server, 60)}</span>
            </td>
            <td>{run.suite}</td>
            <td>{run.passed}/{run.tasks} ({rates.accuracy})</td>
            {run.suite === "proactive"
              ? (
                <>
                  <td>{run.falseAlarms} false alarm(s)</td>
                  <td>{run.misses} miss(es)</td>
                </>
              )
              : (
                <>
                  <td>{rates.toolAccuracy}</td>
                  <td>{rates.leakedRate}</td>
                </>
              )}
            <td>{run.promptTokens + run.completionTokens}</td>
            <td>{formatDuration(run.medianLatencyMs)}</td>
          </tr>
        );
      })}
    </Table>
  );
}

/** One run's tasks in the order they ran. */
export function EvalTaskTable(props: { outcomes: TaskOutcome[] }) {
  return (
    <Table
      class="list eval-tasks"
      columns={[
        "task",
        "result",
        "expected · decided",
        "tools called",
        "tokens",
        "took",
        "why it failed",
      ]}
    >
      {props.outcomes.map((outcome) => (
        <tr class={outcome.pass ? "outcome-ok" : "outcome-failed"}>
          <td>
            <code>{outcome.id}</code>
          </td>
          <td>
            <span class={`badge ${outcome.pass ? "outcome-ok" : "outcome-failed"}`}>
              {outcome.pass ? "pass" : "fail"}
            </span>
          </td>
          <td>{outcome.expected ? `${outcome.expected} · ${outcome.decision ?? "-"}` : ""}</td>
          <td>
            <code>{outcome.toolCalls.join(", ") || "(none)"}</code>
          </td>
          <td>{outcome.promptTokens + outcome.completionTokens}</td>
          <td>{formatDuration(outcome.latencyMs)}</td>
          <td>{outcome.reason ?? ""}</td>
        </tr>
      ))}
    </Table>
  );
}
