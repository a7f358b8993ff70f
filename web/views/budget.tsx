/** The budget card on /tasks: today's tokens of unattended runs against `budget:`, and per day. */
import { type BudgetReport, formatTokens } from "../../src/core/budget.ts";
import { formatTime } from "./format.ts";
import { TableHead } from "./table_head.tsx";

/** Today's spending, the limits, a pause notice and the last days. */
export function BudgetCard(props: { report: BudgetReport }) {
  const { report } = props;
  const { dailyTokens, taskDailyTokens } = report.limits;
  const used = report.heartbeatTokens + report.taskTokens;
  return (
    <section class="card" id="budget">
      <h2>Unattended tokens</h2>
      {report.paused
        ? (
          <p>
            <span class="badge outcome-error">paused</span>{" "}
            Heartbeats and scheduled tasks wait until{" "}
            {formatTime(report.resumesAt)}: the daily budget ({formatTokens(report.paused.limit)}
            {" "}
            tokens) is used up.
          </p>
        )
        : null}
      <p>
        Today: <strong>{formatTokens(used)}</strong>
        {dailyTokens ? ` of ${formatTokens(dailyTokens)}` : ""} tokens (heartbeats{" "}
        {formatTokens(report.heartbeatTokens)}, tasks {formatTokens(report.taskTokens)})
        {taskDailyTokens ? `; at most ${formatTokens(taskDailyTokens)} a task` : ""}
        {!dailyTokens && !taskDailyTokens ? "; no limit set (budget: in radar.yaml)" : ""}
      </p>
      <table class="list">
        <TableHead columns={["day", "heartbeats", "tasks", "total"]} />
        <tbody>
          {report.days.map((day) => (
            <tr>
              <td>{day.day}</td>
              <td>{formatTokens(day.heartbeatTokens)}</td>
              <td>{formatTokens(day.taskTokens)}</td>
              <td>{formatTokens(day.heartbeatTokens + day.taskTokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
