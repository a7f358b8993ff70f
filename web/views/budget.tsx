/**
 * The budget card on /tasks: today's tokens of unattended work (heartbeats, tasks, conversation
 * summaries, digests) against `budget:`, and per day.
 */
import { type BudgetReport, formatTokens, totalTokens } from "../../src/core/budget.ts";
import { formatTime } from "./format.ts";
import { Table } from "./table.tsx";

/** Today's spending, the limits, a pause notice and the last days. */
export function BudgetCard(props: { report: BudgetReport; timeZone: string | undefined }) {
  const { report } = props;
  const { dailyTokens, taskDailyTokens } = report.limits;
  const used = totalTokens(report);
  return (
    <section class="card" id="budget">
      <h2>Unattended tokens</h2>
      {report.paused
        ? (
          <p>
            <span class="badge outcome-error">paused</span>{" "}
            Heartbeats, scheduled tasks, digests, summaries and money categories wait until{" "}
            {formatTime(report.resumesAt, props.timeZone, { zone: true })}: the daily budget
            ({formatTokens(report.paused.limit)} tokens) is used up.
          </p>
        )
        : null}
      <p>
        Today: <strong>{formatTokens(used)}</strong>
        {dailyTokens ? ` of ${formatTokens(dailyTokens)}` : ""} tokens (heartbeats{" "}
        {formatTokens(report.heartbeatTokens)}, tasks {formatTokens(report.taskTokens)}, summaries
        {" "}
        {formatTokens(report.summaryTokens)}, digests {formatTokens(report.digestTokens)}, money
        {" "}
        {formatTokens(report.moneyTokens)}, vision {formatTokens(report.visionTokens)})
        {taskDailyTokens ? `; at most ${formatTokens(taskDailyTokens)} a task` : ""}
        {!dailyTokens && !taskDailyTokens ? "; no limit set (budget: in radar.yaml)" : ""}
      </p>
      <Table
        class="list"
        columns={[
          "day",
          "heartbeats",
          "tasks",
          "summaries",
          "digests",
          "money",
          "vision",
          "total",
        ]}
      >
        {report.days.map((day) => (
          <tr>
            <td>{day.day}</td>
            <td>{formatTokens(day.heartbeatTokens)}</td>
            <td>{formatTokens(day.taskTokens)}</td>
            <td>{formatTokens(day.summaryTokens)}</td>
            <td>{formatTokens(day.digestTokens)}</td>
            <td>{formatTokens(day.moneyTokens)}</td>
            <td>{formatTokens(day.visionTokens)}</td>
            <td>{formatTokens(totalTokens(day))}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
