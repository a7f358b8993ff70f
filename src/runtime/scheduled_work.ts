/**
 * The scheduled work of one Radar: the event queue, the run log, tasks and URL monitors with
 * their runners, the heartbeat runner and the email/calendar jobs, each built once over the
 * open database. `radar serve` ticks them; the CLI and the dashboard call the same instances.
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
import { HeartbeatRunner } from "../application/heartbeat_runner.ts";
import { MonitorChecker } from "../sources/monitors/monitor_checker.ts";
import { MonitorService } from "../sources/monitors/monitor_service.ts";
import { TaskRunner } from "../application/task_runner.ts";
import { TaskService } from "../application/task_service.ts";
import { sourceJobs } from "../sources/source_jobs.ts";
import { channelMailTest } from "../channels/email/owner_mail.ts";
import { checkJobs } from "../sources/checks/check_jobs.ts";
import { UnattendedBudget } from "../application/unattended_budget.ts";
import { githubJobs } from "../sources/github/github_setup.ts";
import { digestJobs } from "../sources/digests/digest_setup.ts";
import type { MoneyParts } from "../money/mod.ts";
import { runSideEffects } from "../core/run_side_effects.ts";
import { notifyOnce } from "../core/notifier.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import type { AgentOptions } from "./agent_dependencies.ts";
import type { CoreAdapters } from "./core_adapters.ts";
import type { ProcessIdentity } from "./radar_options.ts";
import { TriageRunner } from "../application/heartbeat_triage.ts";
import { ConversationSummarizer } from "../application/conversation_summarizer.ts";
import { SqliteSummaryStore } from "../adapters/sqlite/summary_store.ts";
import type { ApprovalService, ChangeNotices, TaskFirings } from "../away/mod.ts";
import { NotificationRetries } from "../application/notification_retries.ts";
import type { Secrets } from "../core/secrets.ts";
import { ScheduledBackup } from "../adapters/backup/scheduled_backup.ts";
import { backupDatabase } from "../adapters/sqlite/maintenance.ts";
import { radarVersion } from "../version.ts";

/** The scheduled work, each part built once. */
export interface ScheduledWork {
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
  taskRunner: TaskRunner;
  monitors: MonitorService;
  monitorChecker: MonitorChecker;
  heartbeat: HeartbeatRunner;
  /** Bank statements: import, categories, report (`radar money`, /money, the money tool). */
  money: MoneyParts["ledger"];
  /** The outbox log of one run under `scope` (notifications recorded before they are sent). */
  sideEffects(scope: string): SideEffectLog;
  /** `budget:`: today's tokens of unattended runs against the limits (status, dashboard, task log). */
  budget: UnattendedBudget;
  /** What each tick runs before the heartbeat: due tasks, due monitors, mail and calendars. */
  tickJobs(): TickJob[];
}

/** What the scheduled work is built from (the database, stores, models, fetch and notifier). */
export interface ScheduledWorkParts extends CoreAdapters {
  config: RadarConfig;
  clock: Clock;
  logger: Logger;
  agent: (overrides?: AgentOptions) => AgentDependencies;
  process: ProcessIdentity;
  resolve: Resolver;
  /** For custom checks and digests. */
  configPath?: string;
  dataDir: string;
  /** True for a personality name that resolves (a task's personality must). */
  personalityKnown?: (name: string) => boolean;
  /** Tells the user what a heartbeat changed on its own (grants), with Undo buttons. */
  changeNotices?: Pick<ChangeNotices, "mark" | "tell">;
  /** Acting while away's tick job: approvals expire, old records go. */
  upkeep: TickJob;
  /** Rebuilds an approval's notice for a retried send (`NotificationRetries`). */
  approvals: Pick<ApprovalService, "renotice">;
  /** Radar's environment (`password_env` of mail and calendar accounts reads it). */
  env: Record<string, string | undefined>;
  /** Embeds memory written without a vector (new digests); absent without an embedding model. */
  embedNew?: (signal: AbortSignal) => Promise<unknown>;
  /** The known secrets: events are masked as they are queued and read. */
  secrets: Secrets;
  /** Money (`buildMoney`): the ledger and its tick job. */
  money: Pick<MoneyParts, "ledger" | "jobs">;
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

/** Builds the queue, run log, task and monitor services, their runners and the heartbeat. */
export function scheduledWork(parts: ScheduledWorkParts): ScheduledWork {
  const { config, db, conversations, clock, logger, agent, sourceStores: stores } = parts;
  const { pid, isAlive, elapsed } = parts.process;
  const timeZone = config.radar.timezone || undefined;
  const { queue } = parts;
  const runs = new SqliteRunStore(db);
  const taskStore = new SqliteTaskStore(db);
  const monitorStore = parts.monitors;
  const inTransaction: Transaction = (work) => transaction(db, work);
  const { outbox, taskFirings } = parts;
  const sideEffects = (scope: string) => runSideEffects(outbox, scope, clock, pid, isAlive);
  const { budget } = parts;
  const tasks = new TaskService(
    taskStore,
    clock,
    timeZone,
    new SqliteTaskOriginStore(db),
    parts.personalityKnown,
  );
  const taskRunner = new TaskRunner({
    transaction: inTransaction,
    claims: new SqliteTaskClaimStore(db),
    store: taskStore,
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
  const monitorChecker = new MonitorChecker({
    config,
    transaction: inTransaction,
    store: monitorStore,
    queue,
    clock,
    logger,
    fetch: parts.fetch,
    resolve: parts.resolve,
  });
  // What every source's jobs are built from.
  const common = { config, stores, queue, clock, logger };
  let jobs: TickJob[] | undefined;
  return {
    money: parts.money.ledger,
    queue,
    runs,
    outbox,
    taskFirings,
    sideEffects,
    watchedFiles: new SqliteWatchedFileStore(db),
    tasks,
    taskRunner,
    monitors: new MonitorService(monitorStore, config, clock),
    monitorChecker,
    heartbeat: new HeartbeatRunner({
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
    }),
    budget,
    tickJobs: () =>
      jobs ??= [
        taskRunner,
        monitorChecker,
        ...sourceJobs({
          ...common,
          env: parts.env,
          secrets: parts.secrets,
          channelMail: channelMailTest(parts.config),
        }),
        ...checkJobs({
          ...common,
          configPath: parts.configPath,
          dataDir: parts.dataDir,
          notifier: parts.notifier,
          sideEffects,
          secrets: parts.secrets,
        }),
        ...githubJobs(common),
        ...parts.money.jobs(),
        ...digestJobs({
          ...common,
          model: parts.model,
          secrets: parts.secrets,
          embedNew: parts.embedNew,
          budget,
        }),
        ...summaryJobs(parts, queue, budget),
        ...(config.backup.every_hours
          ? [
            new ScheduledBackup({
              ...parts,
              radarVersion,
              snapshotDatabase: (target) => backupDatabase(db, target),
            }),
          ]
          : []),
        parts.upkeep,
        new NotificationRetries({
          outbox,
          notifier: parts.notifier,
          clock,
          logger,
          pid,
          renotice: (key) => parts.approvals.renotice(key),
        }),
      ],
  };
}

/** The conversation-summary job (on the fast model when one is set), unless turned off. */
function summaryJobs(
  parts: ScheduledWorkParts,
  queue: EventQueue,
  budget: UnattendedBudget,
): TickJob[] {
  const settings = parts.config.memory.conversation_summaries;
  if (!settings.enabled) return [];
  return [
    new ConversationSummarizer({
      store: new SqliteSummaryStore(parts.db),
      conversations: parts.conversations,
      model: parts.fastModel ?? parts.model,
      pendingEvents: () => queue.pendingCount(),
      logger: parts.logger,
      settings,
      secrets: parts.secrets,
      budget,
    }),
  ];
}
