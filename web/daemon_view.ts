/**
 * The dashboard's `DaemonView` over the open Radar (run log, event queue, task and monitor
 * services and runners, tool audit trail): what `radar serve` shows on `/` and `/tasks`.
 */
import { nextHeartbeatAt } from "../src/core/heartbeat.ts";
import type { Radar } from "../src/runtime/open_radar.ts";
import type { OutboxEntry } from "../src/core/work_ports.ts";
import type { DaemonView, SentNotification } from "./ports.ts";
import { watcherReports } from "../src/daemon/watcher_report.ts";
import { readTaskSchedule } from "../src/runtime/task_schedule_words.ts";
import { effectiveTimeZone } from "../src/core/zoned_time.ts";

/** URL monitor controls of the daemon view. */
export type MonitorControls = Pick<
  DaemonView,
  "monitors" | "addMonitor" | "setMonitorEnabled" | "checkMonitorNow" | "removeMonitor"
>;

/** What the daemon view is built from. */
export interface DaemonViewOptions {
  radar: Radar;
  /** When the daemon started. */
  startedAt: Date;
  /** Aborts when the daemon stops (cancels a task started with "Run now"). */
  signal?: AbortSignal;
}

/** A notification as the outbox recorded it (rows from before schema 33 have their summary). */
function notificationOf(entry: OutboxEntry): SentNotification {
  return {
    at: entry.sentAt ?? entry.finishedAt ?? entry.createdAt,
    title: entry.title || "Radar",
    body: entry.body ?? entry.summary,
    delivered: entry.state === "sent",
    delivery: entry.state === "sent"
      ? "delivered"
      : entry.state === "failed"
      ? "retrying"
      : entry.state === "undeliverable"
      ? "undeliverable"
      : "sending",
    detail: entry.error ?? (entry.status === undefined ? undefined : `HTTP ${entry.status}`),
  };
}

/** Monitor controls over Radar's monitor service and checker; errors are one readable line. */
export function monitorControls(
  radar: Pick<Radar, "monitors" | "monitorChecker">,
): MonitorControls {
  const { monitors, monitorChecker } = radar;
  return {
    monitors: () => monitors.list(),
    async addMonitor(request) {
      const added = await monitors.add(request);
      if ("error" in added) throw new Error(`Cannot add monitor: ${added.error}`);
      return added.id;
    },
    setMonitorEnabled: (id, enabled) => monitors.setEnabled(id, enabled) !== undefined,
    async checkMonitorNow(id) {
      const monitor = monitors.store.get(id);
      if (!monitor) throw new Error(`Cannot check monitor ${id}: no such monitor`);
      await monitorChecker.check(monitor);
    },
    removeMonitor: (id) => monitors.remove(id),
  };
}

/** The daemon view over the open Radar. */
export function daemonView(options: DaemonViewOptions): DaemonView {
  const { radar } = options;
  return {
    state: () => ({
      running: true,
      startedAt: options.startedAt.toISOString(),
      heartbeatEnabled: radar.config.heartbeat.enabled,
    }),
    lastHeartbeat: () =>
      radar.runs.recent(5, { kind: "heartbeat" }).find((run) => run.outcome !== "running"),
    nextHeartbeat() {
      const heartbeat = radar.config.heartbeat;
      if (!heartbeat.enabled) return undefined;
      return nextHeartbeatAt(
        radar.runs.lastScheduledHeartbeat(),
        radar.clock.now(),
        heartbeat.interval_minutes,
      ).toISOString();
    },
    recentNotifications: (limit) => radar.outbox.recent(limit, "notify").map(notificationOf),
    pendingEvents: (limit) => radar.queue.pending(limit),
    tasks: () => radar.tasks.list(),
    budget: () => radar.budget.report(),
    /** The schedule field reads what `radar task add` reads ("every Monday at 9am", cron…). */
    async addTask(task) {
      // The zone the task service computes runs in (radar.timezone as the daemon started).
      const timeZone = effectiveTimeZone(radar.config.radar.timezone);
      const schedule = await readTaskSchedule(task.schedule, radar.clock.now(), timeZone);
      if ("error" in schedule) throw new Error(`Cannot add task: ${schedule.error}`);
      const added = await radar.tasks.add({
        ...schedule.fields,
        message: task.prompt,
        name: task.name,
      });
      if ("error" in added) throw new Error(`Cannot add task: ${added.error}`);
      return added.id;
    },
    setTaskEnabled: (id, enabled) => radar.tasks.setEnabled(id, enabled) !== undefined,
    runTaskNow(id) {
      const task = radar.tasks.store.get(id);
      if (!task) throw new Error(`Cannot find task ${id}: it was removed`);
      // In the background: the page answers at once; the run appears in history when done.
      void radar.taskRunner.runTask(task, "manual", options.signal).then(
        (report) => {
          if (report.outcome === "busy") radar.logger.warn(report.reason, { task: id });
        },
        (error) =>
          radar.logger.error("task run failed", { task: id, error: (error as Error).message }),
      );
    },
    removeTask: (id) => radar.tasks.remove(id),
    watchers: () => watcherReports(radar.config, radar.watchedFiles, Deno.env.toObject()),
    ...monitorControls(radar),
  };
}
