/** In-memory fakes of the dashboard's optional views: daemon, plugins, logs. */
import type { ToolCallRecord } from "../../src/core/ports.ts";
import type { PluginDetails, PluginSummary } from "../../src/core/plugin_state.ts";
import type { PluginRow } from "../../web/views/plugins.tsx";
import type { PendingEvent } from "../../src/core/heartbeat.ts";
import type { MonitorRecord, RunRecord, TaskRecord } from "../../src/core/schedule_ports.ts";
import type { BudgetReport } from "../../src/core/budget.ts";

/** A task record with defaults for what a test does not care about. */
export function taskRecord(
  task: Partial<TaskRecord> & Pick<TaskRecord, "id" | "name">,
): TaskRecord {
  return {
    message: "",
    scheduleKind: "cron",
    schedule: "0 9 * * 1",
    catchUp: "once_within_24h",
    enabled: true,
    createdAt: "2026-11-01T00:00:00Z",
    ...task,
  };
}

/** A monitor record with defaults. */
export function monitorRecord(
  monitor: Partial<MonitorRecord> & Pick<MonitorRecord, "id" | "url">,
): MonitorRecord {
  return {
    name: monitor.url,
    selector: "",
    everyMinutes: 60,
    urgent: false,
    enabled: true,
    createdAt: "2026-11-01T00:00:00Z",
    nextCheckAt: "2026-11-23T10:00:00Z",
    failures: 0,
    ...monitor,
  };
}

/** A heartbeat run record with defaults. */
export function heartbeatRun(run: Partial<RunRecord> & Pick<RunRecord, "startedAt">): RunRecord {
  return {
    id: 1,
    kind: "heartbeat",
    trigger: "schedule",
    pid: 1,
    outcome: "ran",
    reason: "schedule",
    eventCount: 0,
    tools: [],
    notifications: 0,
    answer: "",
    ...run,
  };
}
import type { DaemonView, LogsView, PluginsView, SentNotification } from "../../web/ports.ts";

/** A daemon view over plain arrays; records every control call. */
export class FakeDaemonView implements DaemonView {
  calls: string[] = [];
  tasksList: TaskRecord[] = [];
  budgetReport?: BudgetReport;
  monitorsList: MonitorRecord[] = [];
  events: PendingEvent[] = [];
  notifications: SentNotification[] = [];
  last?: RunRecord;
  next?: string;

  state() {
    return { running: true, startedAt: "2026-11-22T08:00:00.000Z", heartbeatEnabled: true };
  }
  lastHeartbeat() {
    return this.last;
  }
  nextHeartbeat() {
    return this.next;
  }
  recentNotifications(limit: number) {
    return this.notifications.slice(0, limit);
  }
  pendingEvents(limit: number) {
    return this.events.slice(0, limit);
  }
  tasks() {
    return this.tasksList;
  }
  budget() {
    return this.budgetReport;
  }
  monitors() {
    return this.monitorsList;
  }
  addTask(task: { name: string; schedule: string; prompt: string }) {
    if (task.schedule === "bad") throw new Error(`Cannot add task: "bad" is not a schedule`);
    const id = this.tasksList.length + 1;
    this.tasksList.push(
      taskRecord({ id, name: task.name, schedule: task.schedule, message: task.prompt }),
    );
    this.calls.push(`addTask ${task.schedule}`);
    return id;
  }
  setTaskEnabled(id: number, enabled: boolean) {
    this.calls.push(`setTaskEnabled ${id} ${enabled}`);
    const task = this.tasksList.find((task) => task.id === id);
    if (task) task.enabled = enabled;
    return Boolean(task);
  }
  runTaskNow(id: number) {
    this.calls.push(`runTaskNow ${id}`);
  }
  removeTask(id: number) {
    this.calls.push(`removeTask ${id}`);
    return true;
  }
  addMonitor(monitor: { url: string; every: string; selector?: string; name?: string }) {
    const id = this.monitorsList.length + 1;
    this.monitorsList.push(
      monitorRecord({ id, url: monitor.url, name: monitor.name ?? monitor.url }),
    );
    this.calls.push(`addMonitor ${monitor.url}`);
    return id;
  }
  setMonitorEnabled(id: number, enabled: boolean) {
    this.calls.push(`setMonitorEnabled ${id} ${enabled}`);
    return true;
  }
  checkMonitorNow(id: number) {
    this.calls.push(`checkMonitorNow ${id}`);
  }
  removeMonitor(id: number) {
    this.calls.push(`removeMonitor ${id}`);
    return true;
  }
}

/** A pending review as the plugin API returns it, for a plugin never approved. */
export function pendingPlugin(
  summary: Omit<PluginSummary, "status" | "tools">,
  more: Partial<PluginDetails> & { permissions?: string[] } = {},
): PluginDetails {
  const permissions = more.permissions ?? [];
  return {
    summary: { ...summary, status: "pending_review", tools: [] },
    location: `/plugins/pending/${summary.name}`,
    trustLevel: summary.trustLevel,
    author: "someone",
    permissions,
    warnings: [],
    permissionDiff: {
      sinceApproval: false,
      added: permissions.map((description) => ({ kind: "read", target: "/", description })),
      removed: [],
      unchanged: [],
    },
    files: {},
    review: undefined,
    errors: [],
    ...more,
  };
}

/** A plugins view over arrays; approve/reject move reviews into the list. */
export class FakePluginsView implements PluginsView {
  calls: string[] = [];
  constructor(public plugins: PluginRow[] = [], public reviews: PluginDetails[] = []) {}

  list() {
    return this.plugins.map((row) => row.summary);
  }
  pendingReviews() {
    return this.reviews;
  }
  details(name: string): PluginDetails {
    const review = this.reviews.find((candidate) => candidate.summary?.name === name);
    if (review) return review;
    const row = this.plugins.find((candidate) => candidate.summary.name === name);
    if (!row) throw new Error(`Cannot find plugin ${name}`);
    return { ...pendingPlugin(row.summary), summary: row.summary, permissions: row.permissions };
  }
  approve(name: string) {
    const review = this.reviews.find((review) => review.summary?.name === name);
    if (!review?.summary) throw new Error(`Cannot approve ${name}: no pending review`);
    this.calls.push(`approve ${name}`);
    this.reviews = this.reviews.filter((candidate) => candidate !== review);
    const summary = { ...review.summary, status: "enabled" as const };
    this.plugins.push({ summary, permissions: review.permissions });
    return Promise.resolve(summary);
  }
  reject(name: string, reason?: string) {
    this.calls.push(`reject ${name} ${reason}`);
    this.reviews = this.reviews.filter((review) => review.summary?.name !== name);
  }
  enable(name: string) {
    this.calls.push(`setEnabled ${name} true`);
    return Promise.resolve();
  }
  disable(name: string) {
    this.calls.push(`setEnabled ${name} false`);
    return Promise.resolve();
  }
}

/** A logs view over arrays. */
export class FakeLogsView implements LogsView {
  constructor(public lines: string[] = [], public audit: ToolCallRecord[] = []) {}

  agentLog(options: { lines: number; filter?: string }) {
    const filter = options.filter?.toLowerCase();
    const kept = filter
      ? this.lines.filter((line) => line.toLowerCase().includes(filter))
      : this.lines;
    return kept.slice(-options.lines);
  }
  toolAudit(options: { limit: number; tool?: string; failedOnly?: boolean }) {
    return this.audit.filter((row) =>
      (!options.tool || row.tool === options.tool) && (!options.failedOnly || row.outcome !== "ok")
    ).slice(0, options.limit);
  }
}
