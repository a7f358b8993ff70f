/**
 * The scheduled work of one Radar, in two builders over the open database: `workServices` (the
 * run log, tasks, URL monitors, the budget: what the CLI, the dashboard and the tools call) and
 * `scheduledWork` (the task runner, the monitor checker, the heartbeat and every tick job: what
 * `radar serve` ticks), built on first use (scheduled_work_parts.ts, loaded at run time). Each
 * feature's tick job is loaded at run time, and only when configured.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock } from "../core/ports.ts";
import type { EventQueue, Outbox, RunLog, TickJob } from "../core/work_ports.ts";
import { SqliteRunStore } from "../adapters/sqlite/run_store.ts";
import { SqliteTaskStore } from "../adapters/sqlite/task_store.ts";
import { SqliteWatchedFileStore } from "../adapters/sqlite/watched_file_store.ts";
import type { WatchedFolders } from "../sources/watched_folders.ts";
import { SqliteTaskOriginStore } from "../adapters/sqlite/task_origin_store.ts";
import { MonitorService } from "../sources/monitors/monitor_service.ts";
import type { TaskRunner } from "../application/task_runner.ts";
import { TaskService } from "../application/task_service.ts";
import { UnattendedBudget } from "../application/unattended_budget.ts";
import type { MoneyLedgerOnFirstUse } from "./money_on_first_use.ts";
import { runSideEffects } from "../core/run_side_effects.ts";
import { notifyOnce } from "../core/notifier.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import type { CoreAdapters } from "./core_adapters.ts";
import type { ProcessIdentity } from "./radar_options.ts";
import type { TaskFirings } from "../away/mod.ts";
import type { HeartbeatTicker } from "../application/heartbeat_decision.ts";
import type { MonitorChecker } from "../sources/monitors/monitor_checker.ts";
import type { ScheduledWorkParts } from "./scheduled_work_parts.ts";
import { onFirstUse } from "./first_use.ts";

/** What the CLI, the dashboard and the tools use of the scheduled work, each built once. */
export interface WorkServices {
  /** Events waiting for the next heartbeat (watchers, monitors, mail, calendars). */
  queue: EventQueue;
  /** Heartbeat and task runs. */
  runs: RunLog;
  /** Side effects recorded before they happen (notifications). */
  outbox: Outbox;
  /** Each time a task was due and what became of it (`radar task log`). */
  taskFirings: TaskFirings;
  /** Files the folder watchers have seen (settling, queued) and their counters. */
  watchedFiles: WatchedFolders;
  tasks: TaskService;
  monitors: MonitorService;
  /**
   * Bank statements: import, categories, report (`radar money`, /money, the money tool); the
   * ledger loads on the first call.
   */
  money: MoneyLedgerOnFirstUse;
  /** The outbox log of one run under `scope` (notifications recorded before they are sent). */
  sideEffects(scope: string): SideEffectLog;
  /** `budget:`: today's tokens of unattended runs against the limits (status, dashboard, task log). */
  budget: UnattendedBudget;
}

/**
 * What `radar serve` ticks, each part built once, when first asked for: their modules load with
 * the first tick, heartbeat, task run or monitor check.
 */
export interface ScheduledWork {
  /**
   * Due tasks (a tick job) and `radar task run`: the runner (`task_runner.ts`, the agent loop's
   * door) loads with the first task that runs.
   */
  taskRunner: Pick<TaskRunner, "name" | "run" | "runTask">;
  /** Due URL monitors (a tick job), and one monitor checked now (`radar monitor check`). */
  monitorChecker: Pick<MonitorChecker, "name" | "run" | "check">;
  /** The heartbeat: a tick with nothing to do is skipped without loading the runner. */
  heartbeat: HeartbeatTicker;
  /**
   * What each tick runs before the heartbeat: due tasks, due monitors, then each configured
   * feature's job (its module loaded now, once), summaries, upkeep and notice retries.
   */
  tickJobs(): Promise<TickJob[]>;
}

/** What the work services are built from (the database, stores, models, fetch and notifier). */
export interface WorkServiceParts extends CoreAdapters {
  config: RadarConfig;
  clock: Clock;
  process: ProcessIdentity;
  /**
   * True for a personality name that resolves (a task's personality must); the personalities
   * load on the first task that names one.
   */
  personalityKnown: (name: string) => Promise<boolean>;
  /** Money (`moneyOnFirstUse`): the ledger on first use. */
  money: MoneyLedgerOnFirstUse;
  /** `budget:` (`unattendedBudget`, built before money: its model calls count too). */
  budget: UnattendedBudget;
}

/**
 * The budget of unattended work over the run log; its pause notice goes out once per limit and
 * day under its outbox scope, priority high.
 */
export function unattendedBudget(
  parts: Pick<
    ScheduledWorkParts,
    "config" | "db" | "clock" | "logger" | "notifier" | "outbox" | "process"
  >,
): UnattendedBudget {
  const { clock, outbox } = parts;
  const { pid, isAlive } = parts.process;
  return new UnattendedBudget({
    config: parts.config,
    runs: new SqliteRunStore(parts.db),
    clock,
    logger: parts.logger,
    notify: (scope, title, message) =>
      notifyOnce(
        parts.notifier,
        runSideEffects(outbox, scope, clock, pid, isAlive),
        { title, message, priority: "high" },
        AbortSignal.timeout(20_000),
      ),
  });
}

/** Builds the run log, the task and monitor services and the outbox log of a run. */
export function workServices(parts: WorkServiceParts): WorkServices {
  const { config, db, clock, queue, outbox, taskFirings, budget } = parts;
  const { pid, isAlive } = parts.process;
  return {
    money: parts.money,
    queue,
    runs: new SqliteRunStore(db),
    outbox,
    taskFirings,
    sideEffects: (scope) => runSideEffects(outbox, scope, clock, pid, isAlive),
    watchedFiles: new SqliteWatchedFileStore(db),
    tasks: new TaskService(
      new SqliteTaskStore(db),
      clock,
      config.radar.timezone || undefined,
      new SqliteTaskOriginStore(db),
      parts.personalityKnown,
    ),
    monitors: new MonitorService(parts.monitors, config, clock),
    budget,
  };
}

function scheduledWorkPartsModule(): Promise<typeof import("./scheduled_work_parts.ts")> {
  return import(new URL("./scheduled_work_parts.ts", import.meta.url).href);
}

/**
 * The scheduled work, declared here and built (scheduled_work_parts.ts loaded) by the first call
 * of any of its parts; a failed load fails that call and is tried again on the next.
 */
export function scheduledWork(parts: ScheduledWorkParts): ScheduledWork {
  const built = onFirstUse(
    async () => (await scheduledWorkPartsModule()).buildScheduledWork(parts),
    { retry: true },
  );
  return {
    taskRunner: {
      name: "tasks",
      run: async (now, signal) => await (await built()).taskRunner.run(now, signal),
      runTask: async (...args) => await (await built()).taskRunner.runTask(...args),
    },
    monitorChecker: {
      name: "monitors",
      run: async (now, signal) => await (await built()).monitorChecker.run(now, signal),
      check: async (...args) => await (await built()).monitorChecker.check(...args),
    },
    heartbeat: { tick: async (options) => await (await built()).heartbeat.tick(options) },
    tickJobs: async () => await (await built()).tickJobs(),
  };
}
