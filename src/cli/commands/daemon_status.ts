/** The daemon's lines in `radar status`: running, heartbeat, quiet hours, queue, sources. */
import { nextHeartbeatAt } from "../../core/heartbeat.ts";
import { isQuietTime } from "../../core/notifier.ts";
import { formatLocalTime } from "../../core/zoned_time.ts";
import { runningDaemon } from "../../daemon/lock_file.ts";
import { type ConfigState, configStateOf } from "../../daemon/config_watch.ts";
import type { Radar } from "../../runtime/open_radar.ts";
import { describeRun } from "./heartbeat.ts";
import { describeTask } from "./task_description.ts";
import { MonitorService } from "../../sources/monitors/monitor_service.ts";
import { isFailing } from "../../core/schedule.ts";
import { watcherReports, watcherStatusLines } from "../../daemon/watcher_report.ts";
import type { WatcherReport } from "../../sources/watched_folders.ts";

/** What the running daemon made of the last change to its config file (nothing: in step). */
export function configStateLines(state: ConfigState | undefined): string[] {
  if (!state) return [];
  if (state.error) {
    return [
      `  ${state.path} changed but is not used (the daemon keeps its config): ${state.error}`,
    ];
  }
  if (!state.restartKeys.length) return [];
  return [
    `  restart needed to apply ${state.path}: ${state.restartKeys.join(", ")} ` +
    `(radar stop, then radar start; the other changes are applied)`,
  ];
}

/** The daemon status section; `watchers` as `radar status` looked at them (default: look now). */
export function daemonStatus(
  radar: Radar,
  watchers: WatcherReport[] = watcherReports(radar.config, radar.watchedFiles, Deno.env.toObject()),
): string[] {
  const { config, clock } = radar;
  const timeZone = config.radar.timezone || undefined;
  const now = clock.now();

  const daemon = runningDaemon(radar.dataDir);
  const lines = [
    `daemon:    ${
      daemon ? `running (PID ${daemon.pid}${daemon.url ? ` at ${daemon.url}` : ""})` : "not running"
    }`,
  ];
  if (daemon) lines.push(...configStateLines(configStateOf(config, radar.dataDir, daemon.pid)));
  const heartbeat = config.heartbeat;
  if (!heartbeat.enabled) {
    lines.push("heartbeat: disabled (heartbeat.enabled: false)");
  } else {
    lines.push(`heartbeat: every ${heartbeat.interval_minutes} min`);
    const [last] = radar.runs.recent(1, { kind: "heartbeat" });
    lines.push(`  last: ${last ? describeRun(last, timeZone) : "never"}`);
    const next = nextHeartbeatAt(
      radar.runs.lastScheduledHeartbeat(),
      now,
      heartbeat.interval_minutes,
    );
    lines.push(
      `  next: ${daemon ? formatLocalTime(next, timeZone) : "when the daemon runs (radar start)"}`,
    );
  }
  const quiet = heartbeat.quiet_hours;
  lines.push(
    `  quiet hours: ${
      quiet
        ? `${quiet.start}–${quiet.end} (${
          isQuietTime(quiet, now, timeZone) ? "active now" : "not active"
        })`
        : "none"
    }`,
  );
  lines.push(`  pending events: ${radar.queue.pendingCount()}`);
  const setAside = radar.queue.setAside();
  if (setAside.count) {
    lines.push(
      `  set aside by a hook: ${setAside.count} events (last: ${
        setAside.lastReason ?? "?"
      }; radar heartbeat requeue)`,
    );
  }
  const day = radar.runs.totals(new Date(now.getTime() - 24 * 60 * 60_000));
  lines.push(
    `  last 24 h: ${day.runs} ticks, ${day.ran} model runs, ${
      day.promptTokens + day.completionTokens
    } tokens`,
  );
  lines.push(...watcherStatusLines(watchers, timeZone));
  const tasks = radar.tasks.list();
  lines.push(tasks.length ? "tasks:" : "tasks:     none (radar task add)");
  for (const task of tasks) {
    const approval = radar.tasks.needsApproval(task.id) ? " — needs approval" : "";
    lines.push(`  ${describeTask(task, timeZone)}${approval}`);
  }
  const monitors = radar.monitors.list();
  const failing = monitors.filter((monitor) => isFailing(monitor)).length;
  lines.push(
    monitors.length
      ? `monitors:${failing ? ` ${failing} FAILING` : ""}`
      : "monitors:  none (radar monitor add URL)",
  );
  for (const monitor of monitors) lines.push(`  ${MonitorService.describe(monitor, timeZone)}`);
  return lines;
}
