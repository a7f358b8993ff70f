/**
 * The scheduled work of one Radar, in two builders over the open database: `workServices` (the
 * run log, tasks, URL monitors, the budget: what the CLI, the dashboard and the tools call) and
 * `scheduledWork` (the task runner, the monitor checker, the heartbeat and every tick job: what
 * `radar serve` ticks). Each feature's tick job is loaded at run time, and only when configured.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_types.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import type { EventQueue, Outbox, RunLog, TickJob, Transaction } from "../core/work_ports.ts";
import { transaction } from "../adapters/sqlite/write.ts";
import { SqliteRunStore } from "../adapters/sqlite/run_store.ts";
import { SqliteTaskStore } from "../adapters/sqlite/task_store.ts";
import { SqliteWatchedFileStore } from "../adapters/sqlite/watched_file_store.ts";
import type { WatchedFolders } from "../sources/watched_folders.ts";
import { SqliteTaskOriginStore } from "../adapters/sqlite/task_origin_store.ts";
import { SqliteTaskClaimStore } from "../adapters/sqlite/task_claim_store.ts";
import { HeartbeatOnDemand, type HeartbeatTicker } from "../application/heartbeat_decision.ts";
import { MonitorChecker } from "../sources/monitors/monitor_checker.ts";
import { MonitorService } from "../sources/monitors/monitor_service.ts";
import type { TaskRunner } from "../application/task_runner.ts";
import { TaskService } from "../application/task_service.ts";
import { UnattendedBudget } from "../application/unattended_budget.ts";
import type { MoneyLedgerOnFirstUse, MoneyOnFirstUse } from "./money_on_first_use.ts";
import { runSideEffects } from "../core/run_side_effects.ts";
import { notifyOnce } from "../core/notifier.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import type { AgentOptions } from "./agent_dependencies.ts";
import type { CoreAdapters } from "./core_adapters.ts";
import type { ProcessIdentity } from "./radar_options.ts";
import { ConversationSummarizer } from "../application/conversation_summarizer.ts";
import { SqliteSummaryStore } from "../adapters/sqlite/summary_store.ts";
import type { ApprovalService, ChangeNotices, TaskFirings } from "../away/mod.ts";
import { NotificationRetries } from "../application/notification_retries.ts";
import type { Secrets } from "../core/secrets.ts";
import { usableGh } from "../sources/github/find_gh.ts";

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

/** What `radar serve` ticks, each part built once. */
export interface ScheduledWork {
  /**
   * Due tasks (a tick job) and `radar task run`: the runner (`task_runner.ts`, the agent loop's
   * door) loads with the first task that runs.
   */
  taskRunner: Pick<TaskRunner, "name" | "run" | "runTask">;
  monitorChecker: MonitorChecker;
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

/** What the scheduled work is built from: the work services and what runs the agent. */
export interface ScheduledWorkParts
  extends CoreAdapters, Pick<WorkServices, "runs" | "tasks" | "sideEffects"> {
  config: RadarConfig;
  clock: Clock;
  process: ProcessIdentity;
  logger: Logger;
  /** Agent loop dependencies for one run (the agent stack loads on the first run). */
  agent: (overrides?: AgentOptions) => Promise<AgentDependencies>;
  resolve: Resolver;
  /** For custom checks and digests. */
  configPath?: string;
  dataDir: string;
  /** Tells the user what a heartbeat changed on its own (grants), with Undo buttons. */
  changeNotices?: Pick<ChangeNotices, "mark" | "tell">;
  /** Acting while away's tick job: approvals expire, old records go. */
  upkeep: TickJob;
  /** Rebuilds an approval's notice for a retried send (`NotificationRetries`). */
  approvals: Pick<ApprovalService, "renotice">;
  /** Radar's environment (`password_env` of mail and calendar accounts reads it). */
  env: Record<string, string | undefined>;
  /**
   * Embeds memory written without a vector (new digests; nothing without an embedding model).
   */
  embedNew: (signal: AbortSignal) => Promise<unknown>;
  /** The known secrets: events are masked as they are queued and read. */
  secrets: Secrets;
  /** Money (`moneyOnFirstUse`): its tick job. */
  money: Pick<MoneyOnFirstUse, "jobs">;
  /** `budget:` (`unattendedBudget`): unattended runs, summaries and digests count against it. */
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

/** Builds the task runner, the monitor checker, the heartbeat runner and the tick jobs. */
export function scheduledWork(parts: ScheduledWorkParts): ScheduledWork {
  const { config, db, conversations, clock, logger, agent, queue, runs, outbox, budget } = parts;
  const { pid, isAlive, elapsed } = parts.process;
  const timeZone = config.radar.timezone || undefined;
  const inTransaction: Transaction = (work) => transaction(db, work);
  const { tasks, taskFirings } = parts;
  const claims = new SqliteTaskClaimStore(db);
  let runner: Promise<TaskRunner> | undefined;
  const buildRunner = async () => {
    const { TaskRunner } =
      await (import(new URL("../application/task_runner.ts", import.meta.url).href) as Promise<
        typeof import("../application/task_runner.ts")
      >);
    return new TaskRunner({
      transaction: inTransaction,
      claims,
      store: tasks.store,
      runs,
      conversations,
      outbox,
      agent: (personality) =>
        agent(personality ? { personality, personalityFrom: "task" } : undefined),
      needsApproval: (id) => tasks.needsApproval(id),
      clock,
      logger,
      pid,
      isAlive,
      timeZone,
      elapsed,
      firings: taskFirings,
      budget,
    });
  };
  const loadRunner = () =>
    runner ??= buildRunner().catch((error) => {
      // Tried again on the next tick.
      runner = undefined;
      throw error;
    });
  const taskRunner: ScheduledWork["taskRunner"] = {
    name: "tasks",
    // The runner's own first queries, asked here: no run cut short by a crash, no task due.
    run: async (now, signal) => {
      if (!runner && !claims.interrupted().length && !tasks.store.due(now).length) return;
      await (await loadRunner()).run(now, signal);
    },
    runTask: async (...args) => await (await loadRunner()).runTask(...args),
  };
  const monitorChecker = new MonitorChecker({
    config,
    transaction: inTransaction,
    store: parts.monitors,
    queue,
    clock,
    logger,
    fetch: parts.fetch,
    resolve: parts.resolve,
  });
  let jobs: Promise<TickJob[]> | undefined;
  return {
    taskRunner,
    monitorChecker,
    heartbeat: new HeartbeatOnDemand({
      config,
      queue,
      runs,
      clock,
      pid,
      load: async () => {
        const [{ HeartbeatRunner }, { TriageRunner }] = await Promise.all([
          import(new URL("../application/heartbeat_runner.ts", import.meta.url).href) as Promise<
            typeof import("../application/heartbeat_runner.ts")
          >,
          import(new URL("../application/heartbeat_triage.ts", import.meta.url).href) as Promise<
            typeof import("../application/heartbeat_triage.ts")
          >,
        ]);
        return new HeartbeatRunner({
          config,
          transaction: inTransaction,
          queue,
          runs,
          conversations,
          outbox,
          clock,
          logger,
          // The heartbeat's own personality (heartbeat.personality), read live.
          agent: (overrides) =>
            agent(
              config.heartbeat.personality
                ? {
                  ...overrides,
                  personality: config.heartbeat.personality,
                  personalityFrom: "heartbeat",
                }
                : overrides,
            ),
          pid,
          isAlive,
          elapsed,
          triage: parts.fastModel && new TriageRunner(parts.fastModel, logger, elapsed),
          budget,
          changeNotices: parts.changeNotices,
        });
      },
    }),
    tickJobs: () =>
      jobs ??= (async () => [
        taskRunner,
        monitorChecker,
        ...await sourceJobsWhenConfigured(parts),
        ...parts.money.jobs(),
        ...await digestJobsWhenConfigured(parts),
        ...summaryJobs(parts),
        ...await backupJobsWhenConfigured(parts),
        parts.upkeep,
        new NotificationRetries({
          outbox,
          notifier: parts.notifier,
          clock,
          logger,
          pid,
          renotice: (key) => parts.approvals.renotice(key),
        }),
      ])(),
  };
}

/**
 * The event sources' tick jobs, as configured: mail and calendars, custom checks, GitHub (enabled
 * and `gh` installed). Each one's module is loaded here, at run time, only when it is
 * configured: an idle daemon without them never holds their code.
 */
async function sourceJobsWhenConfigured(parts: ScheduledWorkParts): Promise<TickJob[]> {
  const { config } = parts;
  const jobs: TickJob[] = [];
  if (config.email.accounts.length || config.calendar.calendars.length) {
    const { sourceJobs } = await (import(
      new URL("../sources/source_jobs.ts", import.meta.url).href
    ) as Promise<typeof import("../sources/source_jobs.ts")>);
    // The email channel's mail is the channel's, never an event (its owner test loads with it).
    const channelMail = config.channels.email
      ? (await (import(
        new URL("../channels/email/owner_mail.ts", import.meta.url).href
      ) as Promise<typeof import("../channels/email/owner_mail.ts")>)).channelMailTest(config)
      : undefined;
    jobs.push(
      ...sourceJobs({
        ...sourceParts(parts),
        env: parts.env,
        secrets: parts.secrets,
        channelMail,
      }),
    );
  }
  if (config.checks.length) {
    const { checkJobs } = await (import(
      new URL("../sources/checks/check_jobs.ts", import.meta.url).href
    ) as Promise<typeof import("../sources/checks/check_jobs.ts")>);
    jobs.push(...checkJobs({
      ...sourceParts(parts),
      configPath: parts.configPath,
      dataDir: parts.dataDir,
      notifier: parts.notifier,
      sideEffects: parts.sideEffects,
      secrets: parts.secrets,
    }));
  }
  // GitHub's job when it is on and gh is installed.
  const gh = usableGh(config.github, parts.env);
  if ("path" in gh) {
    const { githubJobs } = await (import(
      new URL("../sources/github/github_setup.ts", import.meta.url).href
    ) as Promise<typeof import("../sources/github/github_setup.ts")>);
    jobs.push(...githubJobs(sourceParts(parts)));
  } else if (config.github.enabled) {
    parts.logger.debug("no GitHub source", { reason: gh.problem });
  }
  return jobs;
}

/** What every source's jobs are built from. */
function sourceParts(parts: ScheduledWorkParts) {
  const { config, sourceStores: stores, queue, clock, logger } = parts;
  return { config, stores, queue, clock, logger };
}

/** The digests job (its module loaded only when daily or weekly digests are on). */
async function digestJobsWhenConfigured(parts: ScheduledWorkParts): Promise<TickJob[]> {
  if (!parts.config.digests.daily && !parts.config.digests.weekly) return [];
  const { digestJobs } = await (import(
    new URL("../sources/digests/digest_setup.ts", import.meta.url).href
  ) as Promise<typeof import("../sources/digests/digest_setup.ts")>);
  return digestJobs({
    ...sourceParts(parts),
    model: parts.model,
    secrets: parts.secrets,
    embedNew: parts.embedNew,
    budget: parts.budget,
  });
}

/** The scheduled backup (`backup.every_hours`; the archive writer loaded only then). */
async function backupJobsWhenConfigured(parts: ScheduledWorkParts): Promise<TickJob[]> {
  if (!parts.config.backup.every_hours) return [];
  const [{ ScheduledBackup }, { backupDatabase }, { radarVersion }] = await Promise.all([
    import(new URL("../adapters/backup/scheduled_backup.ts", import.meta.url).href) as Promise<
      typeof import("../adapters/backup/scheduled_backup.ts")
    >,
    import(new URL("../adapters/sqlite/maintenance.ts", import.meta.url).href) as Promise<
      typeof import("../adapters/sqlite/maintenance.ts")
    >,
    import(new URL("../version.ts", import.meta.url).href) as Promise<
      typeof import("../version.ts")
    >,
  ]);
  return [
    new ScheduledBackup({
      ...parts,
      radarVersion,
      snapshotDatabase: (target) => backupDatabase(parts.db, target),
    }),
  ];
}

/** The conversation-summary job (on the fast model when one is set), unless turned off. */
function summaryJobs(parts: ScheduledWorkParts): TickJob[] {
  const settings = parts.config.memory.conversation_summaries;
  if (!settings.enabled) return [];
  return [
    new ConversationSummarizer({
      store: new SqliteSummaryStore(parts.db),
      conversations: parts.conversations,
      model: parts.fastModel ?? parts.model,
      pendingEvents: () => parts.queue.pendingCount(),
      logger: parts.logger,
      settings,
      secrets: parts.secrets,
      budget: parts.budget,
    }),
  ];
}
