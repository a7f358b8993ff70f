/** In-memory fakes of the dashboard's optional views: daemon, plugins, logs. */
import type {
  AuditRow,
  DaemonView,
  HeartbeatTick,
  LogsView,
  PendingEvent,
  PluginReview,
  PluginSummary,
  PluginsView,
  ScheduledTask,
  SentNotification,
  UrlMonitor,
} from "../../web/ports.ts";

/** A daemon view over plain arrays; records every control call. */
export class FakeDaemonView implements DaemonView {
  calls: string[] = [];
  tasksList: ScheduledTask[] = [];
  monitorsList: UrlMonitor[] = [];
  events: PendingEvent[] = [];
  notifications: SentNotification[] = [];
  last?: HeartbeatTick;
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
  monitors() {
    return this.monitorsList;
  }
  addTask(task: { name: string; schedule: string; prompt: string }) {
    if (task.schedule === "bad") throw new Error(`Cannot add task: "bad" is not a schedule`);
    const id = this.tasksList.length + 1;
    this.tasksList.push({ id, ...task, enabled: true });
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
    this.monitorsList.push({ id, name: monitor.name ?? monitor.url, ...monitor, enabled: true });
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

/** A plugins view over arrays; approve/reject move reviews into the list. */
export class FakePluginsView implements PluginsView {
  calls: string[] = [];
  constructor(public plugins: PluginSummary[] = [], public reviews: PluginReview[] = []) {}

  list() {
    return this.plugins;
  }
  pendingReviews() {
    return this.reviews;
  }
  approve(name: string) {
    const review = this.reviews.find((review) => review.name === name);
    if (!review) throw new Error(`Cannot approve ${name}: no pending review`);
    this.calls.push(`approve ${name}`);
    this.reviews = this.reviews.filter((candidate) => candidate !== review);
    this.plugins.push({
      name,
      version: review.version,
      description: review.description,
      trust: review.trust,
      enabled: true,
      status: "approved",
      permissions: [...review.permissionDiff.added, ...review.permissionDiff.unchanged],
      tools: [],
    });
  }
  reject(name: string, reason: string) {
    this.calls.push(`reject ${name} ${reason}`);
    this.reviews = this.reviews.filter((review) => review.name !== name);
  }
  setEnabled(name: string, enabled: boolean) {
    this.calls.push(`setEnabled ${name} ${enabled}`);
  }
}

/** A logs view over arrays. */
export class FakeLogsView implements LogsView {
  constructor(public lines: string[] = [], public audit: AuditRow[] = []) {}

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
