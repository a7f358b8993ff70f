/** The daemon's stores and runners, built on an open runtime. */
import type { AgentDependencies } from "../core/agent_loop.ts";
import { isProcessAlive } from "../adapters/process.ts";
import { SqliteEventQueue } from "../adapters/sqlite/event_queue.ts";
import { SqliteRunStore } from "../adapters/sqlite/run_store.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { SqliteTaskStore } from "../adapters/sqlite/task_store.ts";
import { HeartbeatRunner } from "./heartbeat_runner.ts";
import { TaskRunner } from "./task_runner.ts";
import { TaskService } from "./task_service.ts";

/** Everything the scheduler and the daemon commands share. */
export interface DaemonServices {
  runtime: Runtime;
  queue: SqliteEventQueue;
  runs: SqliteRunStore;
  heartbeat: HeartbeatRunner;
  tasks: TaskService;
  taskRunner: TaskRunner;
  /** Agent dependencies (tests swap the model here). */
  agent: (overrides?: { historyMessages?: number }) => AgentDependencies;
  pid: number;
  isAlive: (pid: number) => boolean;
  elapsed: () => number;
}

/** Overrides for tests: a scripted model, a fake PID and liveness. */
export interface DaemonServiceOverrides {
  agent?: (overrides?: { historyMessages?: number }) => AgentDependencies;
  pid?: number;
  isAlive?: (pid: number) => boolean;
}

/** Builds the daemon services on `runtime`. */
export function daemonServices(
  runtime: Runtime,
  overrides: DaemonServiceOverrides = {},
): DaemonServices {
  const queue = new SqliteEventQueue(runtime.db);
  const runs = new SqliteRunStore(runtime.db);
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
    clock: runtime.clock,
    logger: runtime.logger,
    agent,
    pid,
    isAlive,
    elapsed,
  });
  const timeZone = runtime.config.radar.timezone || undefined;
  const taskStore = new SqliteTaskStore(runtime.db);
  const tasks = new TaskService(taskStore, runtime.clock, timeZone);
  const taskRunner = new TaskRunner({
    store: taskStore,
    runs,
    conversations: runtime.conversations,
    agent: () => agent(),
    clock: runtime.clock,
    logger: runtime.logger,
    pid,
    timeZone,
    elapsed,
  });
  return { runtime, queue, runs, heartbeat, tasks, taskRunner, agent, pid, isAlive, elapsed };
}
