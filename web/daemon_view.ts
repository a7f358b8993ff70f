/**
 * The dashboard's `DaemonView` over the daemon's own services (run store, event queue, task
 * service and runner, tool audit trail): what `radar serve` shows on `/` and `/tasks`. URL
 * monitors plug in through `monitors` once the daemon has them; without it the page lists none
 * and adding one says why.
 */
import { nextHeartbeatAt } from "../src/core/heartbeat.ts";
import type { RunRecord } from "../src/adapters/sqlite/run_store.ts";
import type { TaskRecord } from "../src/adapters/sqlite/task_store.ts";
import type { TaskInput } from "../src/daemon/task_service.ts";
import type { DaemonServices } from "../src/daemon/services.ts";
import type {
  DaemonView,
  HeartbeatTick,
  ScheduledTask,
  SentNotification,
  UrlMonitor,
} from "./ports.ts";

/** URL monitor controls, as the daemon's monitor service will provide them. */
export type MonitorControls = Pick<
  DaemonView,
  "monitors" | "addMonitor" | "setMonitorEnabled" | "checkMonitorNow" | "removeMonitor"
>;

/** What the daemon view is built from. */
export interface DaemonViewOptions {
  services: DaemonServices;
  /** When the daemon started. */
  startedAt: Date;
  /** Aborts when the daemon stops (cancels a task started with "Run now"). */
  signal?: AbortSignal;
  monitors?: MonitorControls;
}

const noMonitors = "Cannot manage URL monitors: this build of the daemon has none yet";

/** A task's schedule as the dashboard writes it ("0 9 * * 1", "every 2h", "at …"). */
export function describeSchedule(task: Pick<TaskRecord, "scheduleKind" | "schedule">): string {
  if (task.scheduleKind === "cron") return task.schedule;
  if (task.scheduleKind === "at") return `at ${task.schedule}`;
  const minutes = Number(task.schedule);
  if (minutes % 1440 === 0) return `every ${minutes / 1440}d`;
  if (minutes % 60 === 0) return `every ${minutes / 60}h`;
  return `every ${minutes}m`;
}

/** Reads the dashboard's one schedule field: "every 2h", "at 2026-12-01 09:00" or cron. */
export function scheduleInput(text: string): Pick<TaskInput, "cron" | "every" | "at"> {
  const schedule = text.trim();
  const every = /^every\s+(.+)$/i.exec(schedule);
  if (every) return { every: every[1].trim() };
  const at = /^at\s+(.+)$/i.exec(schedule);
  if (at) return { at: at[1].trim() };
  return { cron: schedule };
}

function toTask(task: TaskRecord): ScheduledTask {
  return {
    id: task.id,
    name: task.name,
    schedule: describeSchedule(task),
    prompt: task.message,
    enabled: task.enabled,
    nextRun: task.nextRunAt,
    lastRun: task.lastRunAt,
    lastResult: task.lastOutcome && task.lastOutcome !== "ok" ? task.lastOutcome : undefined,
    lastOutcome: task.lastOutcome === undefined
      ? undefined
      : task.lastOutcome === "ok"
      ? "ok"
      : "error",
  };
}

function summaryOf(run: RunRecord): string {
  if (run.outcome !== "ran") return run.reason;
  const tools = run.tools.length ? ` (tools: ${run.tools.join(", ")})` : "";
  return `${run.answer.replace(/\s+/g, " ").trim().slice(0, 200) || run.reason}${tools}`;
}

function toTick(run: RunRecord): HeartbeatTick {
  return {
    at: run.startedAt,
    reason: `${run.trigger}${run.eventCount ? `, ${run.eventCount} events` : ""}`,
    outcome: run.outcome === "running" ? "ran" : run.outcome,
    summary: summaryOf(run),
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    durationMs: run.durationMs,
    conversationId: run.conversationId,
  };
}

function notificationOf(row: { at: string; arguments: string; outcome: string }): SentNotification {
  let title = "";
  let body = "";
  try {
    const args = JSON.parse(row.arguments) as { title?: unknown; message?: unknown };
    title = typeof args.title === "string" ? args.title : "";
    body = typeof args.message === "string" ? args.message : "";
  } catch {
    body = row.arguments;
  }
  return { at: row.at, title: title || "Radar", body, delivered: row.outcome === "ok" };
}

/** The daemon view over the running daemon's services. */
export function daemonViewFromServices(options: DaemonViewOptions): DaemonView {
  const { services } = options;
  const { runtime } = services;
  const monitors = options.monitors;
  const taskOrThrow = (id: number) => {
    const task = services.tasks.store.get(id);
    if (!task) throw new Error(`Cannot find task ${id}: it was removed`);
    return task;
  };
  return {
    state: () => ({
      running: true,
      startedAt: options.startedAt.toISOString(),
      heartbeatEnabled: runtime.config.heartbeat.enabled,
    }),
    lastHeartbeat() {
      const run = services.runs.recent(5, { kind: "heartbeat" }).find((candidate) =>
        candidate.outcome !== "running"
      );
      return run ? toTick(run) : undefined;
    },
    nextHeartbeat() {
      const heartbeat = runtime.config.heartbeat;
      if (!heartbeat.enabled) return undefined;
      return nextHeartbeatAt(
        services.runs.lastScheduledHeartbeat(),
        runtime.clock.now(),
        heartbeat.interval_minutes,
      ).toISOString();
    },
    recentNotifications: (limit) =>
      runtime.toolCalls.list({ limit, tool: "notify" }).map(notificationOf),
    pendingEvents: (limit) =>
      services.queue.pending(limit).map((event) => ({
        id: event.id,
        source: event.source,
        summary: event.summary,
        at: event.createdAt,
      })),
    tasks: () => services.tasks.list().map(toTask),
    addTask(task) {
      const added = services.tasks.add({
        ...scheduleInput(task.schedule),
        message: task.prompt,
        name: task.name,
      });
      if ("error" in added) throw new Error(`Cannot add the task: ${added.error}`);
      return added.id;
    },
    setTaskEnabled: (id, enabled) => services.tasks.setEnabled(id, enabled) !== undefined,
    runTaskNow(id) {
      const task = taskOrThrow(id);
      // In the background: the page answers at once; the run appears in history when done.
      void services.taskRunner.runTask(task, "manual", options.signal).then(
        (report) => {
          if (report.outcome === "busy") runtime.logger.warn(report.reason, { task: id });
        },
        (error) =>
          runtime.logger.error("task run failed", { task: id, error: (error as Error).message }),
      );
    },
    removeTask: (id) => services.tasks.remove(id),
    monitors: (): UrlMonitor[] | Promise<UrlMonitor[]> => monitors ? monitors.monitors() : [],
    addMonitor(monitor) {
      if (!monitors) throw new Error(noMonitors);
      return monitors.addMonitor(monitor);
    },
    setMonitorEnabled(id, enabled) {
      if (!monitors) throw new Error(noMonitors);
      return monitors.setMonitorEnabled(id, enabled);
    },
    checkMonitorNow(id) {
      if (!monitors) throw new Error(noMonitors);
      return monitors.checkMonitorNow(id);
    },
    removeMonitor(id) {
      if (!monitors) throw new Error(noMonitors);
      return monitors.removeMonitor(id);
    },
  };
}
