/** Task and monitor tables for /tasks, each row with its POST buttons. */
import type { MonitorRecord, TaskRecord } from "../../src/core/schedule_ports.ts";
import { formatDurationMinutes, isFailing } from "../../src/core/schedule.ts";
import { describeSchedule } from "../../src/core/schedule_words.ts";
import { formatTime, truncate } from "./format.ts";
import { type BudgetReport, formatTokens } from "../../src/core/budget.ts";
import { Table } from "./table.tsx";

function ActionButton(props: { action: string; label: string; kind?: string; confirm?: string }) {
  return (
    <form
      method="post"
      action={props.action}
      class="inline"
      hx-post={props.action}
      hx-confirm={props.confirm}
    >
      <button type="submit" class={`small ${props.kind ?? "secondary"}`}>{props.label}</button>
    </form>
  );
}

/** Scheduled tasks, with each one's tokens today when the budget report is there. */
export function TaskTable(
  props: { tasks: TaskRecord[]; budget?: BudgetReport; timeZone: string | undefined },
) {
  const { timeZone } = props;
  const today = new Map(props.budget?.byTask.map((entry) => [entry.taskId, entry]));
  if (!props.tasks.length) return <p class="muted">No tasks yet.</p>;
  return (
    <Table
      class="list"
      columns={[
        "task",
        "schedule",
        "next run",
        "last result",
        props.budget ? "tokens today" : null,
        "",
      ]}
    >
      {props.tasks.map((task) => (
        <tr class={task.enabled ? undefined : "disabled"}>
          <td>
            <strong>{task.name}</strong>
            <div class="muted">{truncate(task.message, 160)}</div>
          </td>
          <td>
            <code>{describeSchedule(task, timeZone)}</code>
          </td>
          <td>{task.enabled ? formatTime(task.nextRunAt, timeZone) || "—" : "disabled"}</td>
          <td>
            {task.lastRunAt
              ? <span class="muted">{formatTime(task.lastRunAt, timeZone)}</span>
              : null}
            {task.lastOutcome === undefined
              ? null
              : task.lastOutcome === "ok"
              ? <span class="badge outcome-ok">ok</span>
              : <span class="badge outcome-error">error</span>}{" "}
            {task.lastOutcome && task.lastOutcome !== "ok"
              ? truncate(task.lastOutcome, 200)
              : task.lastRunAt
              ? ""
              : "never ran"}
          </td>
          {props.budget
            ? (
              <td>
                {formatTokens(today.get(task.id)?.tokens ?? 0)}
                {today.get(task.id)?.paused
                  ? <span class="badge outcome-error">paused</span>
                  : null}
              </td>
            )
            : null}
          <td class="actions">
            <ActionButton action={`/tasks/${task.id}/run`} label="Run now" />
            {task.enabled
              ? <ActionButton action={`/tasks/${task.id}/disable`} label="Disable" />
              : <ActionButton action={`/tasks/${task.id}/enable`} label="Enable" />}
            <ActionButton
              action={`/tasks/${task.id}/delete`}
              label="Remove"
              kind="danger"
              confirm="Remove this task?"
            />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** URL monitors. */
export function MonitorTable(props: { monitors: MonitorRecord[]; timeZone: string | undefined }) {
  const { timeZone } = props;
  if (!props.monitors.length) return <p class="muted">No monitors yet.</p>;
  return (
    <Table class="list" columns={["monitor", "every", "next check", "last result", ""]}>
      {props.monitors.map((monitor) => (
        <tr class={monitor.enabled ? undefined : "disabled"}>
          <td>
            <strong>{monitor.name}</strong>
            <div class="muted url">
              {monitor.url}
              {monitor.selector ? ` (${monitor.selector})` : ""}
            </div>
          </td>
          <td>{formatDurationMinutes(monitor.everyMinutes)}</td>
          <td>
            {monitor.enabled ? formatTime(monitor.nextCheckAt, timeZone) || "—" : "disabled"}
          </td>
          <td>
            {monitor.lastCheckedAt
              ? <span class="muted">{formatTime(monitor.lastCheckedAt, timeZone)}</span>
              : null}
            {isFailing(monitor)
              ? truncate(`FAILING: ${monitor.lastError}`, 200)
              : monitor.lastResult
              ? truncate(monitor.lastResult, 200)
              : monitor.lastCheckedAt
              ? ""
              : "never checked"}
          </td>
          <td class="actions">
            <ActionButton action={`/tasks/monitors/${monitor.id}/check`} label="Check now" />
            {monitor.enabled
              ? <ActionButton action={`/tasks/monitors/${monitor.id}/disable`} label="Disable" />
              : <ActionButton action={`/tasks/monitors/${monitor.id}/enable`} label="Enable" />}
            <ActionButton
              action={`/tasks/monitors/${monitor.id}/delete`}
              label="Remove"
              kind="danger"
              confirm="Remove this monitor?"
            />
          </td>
        </tr>
      ))}
    </Table>
  );
}
