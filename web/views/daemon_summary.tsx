/** The dashboard's heartbeat card: scheduler state, last/next tick, events, notifications. */
import type { DaemonView } from "../ports.ts";
import type { RunRecord } from "../../src/core/schedule_ports.ts";
import { formatDuration, formatTime, truncate } from "./format.ts";
import { WatcherTable } from "./watchers.tsx";

/** One line: what a heartbeat did, or why it skipped. */
function runSummary(run: RunRecord): string {
  if (run.outcome !== "ran") return run.reason;
  const tools = run.tools.length ? ` (tools: ${run.tools.join(", ")})` : "";
  return `${run.answer.replace(/\s+/g, " ").trim().slice(0, 200) || run.reason}${tools}`;
}

/** Renders the daemon's current state (async: the view may query it). */
export async function DaemonSummary(props: { daemon: DaemonView }) {
  const { daemon } = props;
  const [state, last, next, events, notifications, watchers] = await Promise.all([
    daemon.state(),
    daemon.lastHeartbeat(),
    daemon.nextHeartbeat(),
    daemon.pendingEvents(10),
    daemon.recentNotifications(5),
    daemon.watchers?.(),
  ]);
  return (
    <div>
      <dl class="facts">
        <dt>scheduler</dt>
        <dd class={state.running ? "good" : "bad"}>
          {state.running ? "running" : "stopped"}
          {state.startedAt
            ? <span class="muted">{` since ${formatTime(state.startedAt)}`}</span>
            : null}
        </dd>
        <dt>heartbeat</dt>
        <dd>{state.heartbeatEnabled ? "enabled" : "disabled"}</dd>
        <dt>last tick</dt>
        <dd>
          {last
            ? (
              <>
                {formatTime(last.startedAt)} ·{" "}
                <span class={`badge tick-${last.outcome === "running" ? "ran" : last.outcome}`}>
                  {last.outcome === "running" ? "ran" : last.outcome}
                </span>{" "}
                <span class="muted">
                  woke by {last.trigger}
                  {last.eventCount ? `, ${last.eventCount} events` : ""}
                </span>
                <div>{runSummary(last)}</div>
                <div class="muted">
                  {last.promptTokens !== undefined
                    ? `${last.promptTokens}+${last.completionTokens ?? 0} tokens`
                    : "no model call"}
                  {last.durationMs !== undefined ? ` · ${formatDuration(last.durationMs)}` : ""}
                  {last.conversationId
                    ? (
                      <>
                        · <a href={`/history/${last.conversationId}`}>open</a>
                      </>
                    )
                    : null}
                </div>
              </>
            )
            : "none yet"}
        </dd>
        <dt>next tick</dt>
        <dd>{next ? formatTime(next) : "not scheduled"}</dd>
      </dl>
      <h3>Pending events ({events.length})</h3>
      {events.length
        ? (
          <ul class="plain">
            {events.map((event) => (
              <li>
                <span class="muted">{formatTime(event.createdAt)} {event.source}</span>{" "}
                {truncate(event.summary, 200)}
              </li>
            ))}
          </ul>
        )
        : <p class="muted">Nothing waiting: the next tick costs no model call.</p>}
      {watchers
        ? (
          <>
            <h3>Folder watchers</h3>
            <WatcherTable watchers={watchers} />
          </>
        )
        : null}
      <h3>Recent notifications</h3>
      {notifications.length
        ? (
          <ul class="plain">
            {notifications.map((notification) => (
              <li>
                <span class="muted">{formatTime(notification.at)}</span>{" "}
                <strong>{notification.title}</strong> {truncate(notification.body, 200)}
                {notification.delivered
                  ? null
                  : (
                    <span class="badge outcome-error" title={notification.detail}>
                      {notification.delivery === "undeliverable"
                        ? "UNDELIVERABLE"
                        : notification.delivery === "retrying"
                        ? "not delivered yet: retrying"
                        : "not delivered"}
                    </span>
                  )}
              </li>
            ))}
          </ul>
        )
        : <p class="muted">None sent.</p>}
    </div>
  );
}
