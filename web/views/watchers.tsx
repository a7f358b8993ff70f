/** The dashboard's folder watchers: per watcher, files seen, the last reconcile, and found by it. */
import type { WatcherReport } from "../../src/sources/watched_folders.ts";
import { reconcileReasonText, watcherStateText } from "../../src/daemon/watcher_report.ts";
import { formatDuration, formatTime } from "./format.ts";
import { Table } from "./table.tsx";

/** One row per configured watcher; a non-zero "found by reconciling" is flagged. */
export function WatcherTable(props: { watchers: WatcherReport[]; timeZone: string | undefined }) {
  if (!props.watchers.length) {
    return <p class="muted">No folder watchers (watchers: in radar.yaml).</p>;
  }
  return (
    <Table
      class="watchers"
      columns={[
        "folder",
        "files seen",
        "queued",
        "last reconcile",
        "found by reconciling",
        "found at start",
      ]}
    >
      {props.watchers.map((watcher) => {
        const { stats } = watcher;
        return (
          <tr>
            <td>
              {watcher.path} <span class="muted">{watcher.pattern}</span>
              {watcher.recursive ? <span class="muted">(recursive)</span> : null}
              {watcher.state === "ok" ? null : <div class="bad">{watcherStateText(watcher)}</div>}
            </td>
            <td>{stats.seen}</td>
            <td>
              {stats.queued}
              {stats.settling ? <span class="muted">{` (${stats.settling} settling)`}</span> : null}
            </td>
            <td>
              {stats.lastReconcileAt
                ? (
                  <>
                    {formatTime(stats.lastReconcileAt, props.timeZone)}{" "}
                    <span class="muted">
                      {reconcileReasonText[stats.lastReconcileReason ?? ""] ??
                        stats.lastReconcileReason}, {formatDuration(stats.lastReconcileMs)}
                    </span>
                  </>
                )
                : "never"}
            </td>
            <td
              class={stats.foundByReconcile ? "bad" : undefined}
              title={stats.foundByReconcile
                ? "files the OS event stream did not report; Radar found and queued them"
                : undefined}
            >
              {stats.foundByReconcile}
            </td>
            <td>{stats.recovered}</td>
          </tr>
        );
      })}
    </Table>
  );
}
