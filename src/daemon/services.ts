/** The daemon's stores and runners, built on an open runtime. */
import type { AgentDependencies } from "../core/agent_loop.ts";
import { isProcessAlive, processStartTime } from "../adapters/process.ts";
import { SqliteEventQueue } from "../adapters/sqlite/event_queue.ts";
import { SqliteRunStore } from "../adapters/sqlite/run_store.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { SqliteTaskStore } from "../adapters/sqlite/task_store.ts";
import { HeartbeatRunner } from "./heartbeat_runner.ts";
import { TaskRunner } from "./task_runner.ts";
import { TaskService } from "./task_service.ts";
import { SqliteMonitorStore } from "../adapters/sqlite/monitor_store.ts";
import { denoResolver, type Resolver } from "../tools/web/network_guard.ts";
import { MonitorChecker } from "./monitor_checker.ts";
import { MonitorService } from "./monitor_service.ts";
import { SqliteWatchedFileStore } from "../adapters/sqlite/watched_file_store.ts";
import { SqliteOutbox } from "../adapters/sqlite/outbox_store.ts";
import { SqliteTaskOriginStore } from "../adapters/sqlite/task_origin_store.ts";
import { SqliteTaskClaimStore } from "../adapters/sqlite/task_claim_store.ts";

/** Everything the scheduler and the daemon commands share. */
export interface DaemonServices {
  runtime: Runtime;
  queue: SqliteEventQueue;
  runs: SqliteRunStore;
  /** Side effects recorded before they happen (notifications). */
  outbox: SqliteOutbox;
  /** Files the folder watchers have seen (settling, queued) and their counters. */
  watchedFiles: SqliteWatchedFileStore;
  heartbeat: HeartbeatRunner;
  tasks: TaskService;
  taskRunner: TaskRunner;
  monitors: MonitorService;
  monitorChecker: MonitorChecker;
  /** Agent dependencies (tests swap the model here). */
  agent: (overrides?: { historyMessages?: number }) => AgentDependencies;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** When a PID's process started (spots a reused PID in a stale lock); absent in tests. */
  processStart?: (pid: number) => Date | undefined;
  elapsed: () => number;
}

/** Overrides for tests: a scripted model, a fake PID and liveness. */
export interface DaemonServiceOverrides {
  agent?: (overrides?: { historyMessages?: number }) => AgentDependencies;
  pid?: number;
  isAlive?: (pid: number) => boolean;
  /** HTTP client and DNS resolver of URL monitors. */
  fetch?: typeof fetch;
  resolve?: Resolver;
}

/** Builds the daemon services on `runtime`. */
export function daemonServices(
  runtime: Runtime,
  overrides: DaemonServiceOverrides = {},
): DaemonServices {
  const queue = new SqliteEventQueue(runtime.db);
  const runs = new SqliteRunStore(runtime.db);
  const outbox = new SqliteOutbox(runtime.db);
  const agent = overrides.agent ?? ((options) => runtime.agent(options));
  const pid = overrides.pid ?? Deno.pid;
  const isAlive = overrides.isAlive ?? isProcessAlive;
  const elapsed = () => performance.now();
  const heartbeat = new HeartbeatRunner({
    config: runtime.config,
    db: runtime.db,
    queue,
    runs,
    conversations: runtime.conversations,
    outbox,
    clock: runtime.clock,
    logger: runtime.logger,
    agent,
    pid,
    isAlive,
    elapsed,
  });
  const timeZone = runtime.config.radar.timezone || undefined;
  const taskStore = new SqliteTaskStore(runtime.db);
  const tasks = new TaskService(
    taskStore,
    runtime.clock,
    timeZone,
    new SqliteTaskOriginStore(runtime.db),
  );
  const taskRunner = new TaskRunner({
    db: runtime.db,
    claims: new SqliteTaskClaimStore(runtime.db),
    store: taskStore,
    runs,
    conversations: runtime.conversations,
    outbox,
    agent: () => agent(),
    needsApproval: (id) => tasks.needsApproval(id),
    clock: runtime.clock,
    logger: runtime.logger,
    pid,
    isAlive,
    timeZone,
    elapsed,
  });
  const monitorStore = new SqliteMonitorStore(runtime.db);
  const monitors = new MonitorService(monitorStore, runtime.config, runtime.clock);
  const monitorChecker = new MonitorChecker({
    config: runtime.config,
    db: runtime.db,
    store: monitorStore,
    queue,
    clock: runtime.clock,
    logger: runtime.logger,
    fetch: overrides.fetch ?? globalThis.fetch,
    resolve: overrides.resolve ?? denoResolver,
  });
  return {
    runtime,
    queue,
    runs,
    outbox,
    watchedFiles: new SqliteWatchedFileStore(runtime.db),
    heartbeat,
    tasks,
    taskRunner,
    monitors,
    monitorChecker,
    agent,
    pid,
    isAlive,
    // Real start times only with real liveness: a test's fake PIDs may be real processes here.
    processStart: overrides.isAlive ? undefined : processStartTime,
    elapsed,
  };
}
