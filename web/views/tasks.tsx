/** Task and monitor tables for /tasks, each row with its POST buttons. */
import type { ScheduledTask, UrlMonitor } from "../ports.ts";
import { formatTime, truncate } from "./format.ts";

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

/** Scheduled tasks. */
export function TaskTable(props: { tasks: ScheduledTask[] }) {
  if (!props.tasks.length) return <p class="muted">No tasks yet.</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th>task</th>
          <th>schedule</th>
          <th>next run</th>
          <th>last result</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        {props.tasks.map((task) => (
          <tr class={task.enabled ? undefined : "disabled"}>
            <td>
              <strong>{task.name}</strong>
              <div class="muted">{truncate(task.prompt, 160)}</div>
            </td>
            <td>
              <code>{task.schedule}</code>
            </td>
            <td>{task.enabled ? formatTime(task.nextRun) || "—" : "disabled"}</td>
            <td>
              {task.lastRun ? <span class="muted">{formatTime(task.lastRun)}</span> : null}
              {task.lastOutcome
                ? <span class={`badge outcome-${task.lastOutcome}`}>{task.lastOutcome}</span>
                : null}{" "}
              {task.lastResult ? truncate(task.lastResult, 200) : task.lastRun ? "" : "never ran"}
            </td>
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
      </tbody>
    </table>
  );
}

/** URL monitors. */
export function MonitorTable(props: { monitors: UrlMonitor[] }) {
  if (!props.monitors.length) return <p class="muted">No monitors yet.</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th>monitor</th>
          <th>every</th>
          <th>next check</th>
          <th>last result</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        {props.monitors.map((monitor) => (
          <tr class={monitor.enabled ? undefined : "disabled"}>
            <td>
              <strong>{monitor.name}</strong>
              <div class="muted url">
                {monitor.url}
                {monitor.selector ? ` (${monitor.selector})` : ""}
              </div>
            </td>
            <td>{monitor.every}</td>
            <td>{monitor.enabled ? formatTime(monitor.nextCheck) || "—" : "disabled"}</td>
            <td>
              {monitor.lastCheck
                ? <span class="muted">{formatTime(monitor.lastCheck)}</span>
                : null}
              {monitor.lastResult
                ? truncate(monitor.lastResult, 200)
                : monitor.lastCheck
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
      </tbody>
    </table>
  );
}
