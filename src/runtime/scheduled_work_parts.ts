/**
 * What `radar serve` ticks, built when first asked for (the first tick, `radar heartbeat`,
 * `radar task run`, `radar monitor check`), its modules loaded at run time by scheduled_work.ts:
 * the task runner's door, the monitor checker, the heartbeat decision and every tick job. A
 * command that never asks (`radar ask`) never loads them.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_types.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import type { RunLog, TickJob, Transaction } from "../core/work_ports.ts";
import { transaction } from "../adapters/sqlite/write.ts";
import { SqliteTaskClaimStore } from "../adapters/sqlite/task_claim_store.ts";
import { HeartbeatOnDemand, type HeartbeatTicker } from "../application/heartbeat_decision.ts";
import { MonitorChecker } from "../sources/monitors/monitor_checker.ts";
import type { TaskRunner } from "../application/task_runner.ts";
import type { TaskService } from "../application/task_service.ts";
import type { UnattendedBudget } from "../application/unattended_budget.ts";
import type { MoneyOnFirstUse } from "./money_on_first_use.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import type { AgentOptions } from "./agent_dependencies.ts";
import type { CoreAdapters } from "./core_adapters.ts";
import type { ProcessIdentity } from "./radar_options.ts";
import { ConversationSummarizer } from "../application/conversation_summarizer.ts";
import { SqliteSummaryStore } from "../adapters/sqlite/summary_store.ts";
import type { ApprovalService, ChangeNotices } from "../away/mod.ts";
import { NotificationRetries } from "../application/notification_retries.ts";
import type { Secrets } from "../core/secrets.ts";
import { usableGh } from "../sources/github/find_gh.ts";
import { onFirstUse } from "./first_use.ts";

/** What the scheduled work is built from: the work services and what runs the agent. */
export interface ScheduledWorkParts extends CoreAdapters {
  /** Heartbeat and task runs. */
  runs: RunLog;
  tasks: TaskService;
  /** The outbox log of one run under `scope` (notifications recorded before they are sent). */
  sideEffects(scope: string): SideEffectLog;
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

/** The scheduled work once built: what `ScheduledWork` hands on to. */
export interface BuiltScheduledWork {
  taskRunner: Pick<TaskRunner, "name" | "run" | "runTask">;
  monitorChecker: MonitorChecker;
  heartbeat: HeartbeatTicker;
  tickJobs(): Promise<TickJob[]>;
}

/** Builds the task runner, the monitor checker, the heartbeat and the tick jobs. */
export function buildScheduledWork(parts: ScheduledWorkParts): BuiltScheduledWork {
  const { config, db, conversations, clock, logger, agent, queue, runs, outbox, budget } = parts;
  const { pid, isAlive, elapsed } = parts.process;
  const timeZone = config.radar.timezone || undefined;
  const inTransaction: Transaction = (work) => transaction(db, work);
  const { tasks, taskFirings } = parts;
  const claims = new SqliteTaskClaimStore(db);
  // Loaded with the first task that runs; a failed load is tried again on the next tick.
  const runner = onFirstUse(async () => {
    const { TaskRunner } = await taskRunnerModule();
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
  }, { retry: true });
  const taskRunner: BuiltScheduledWork["taskRunner"] = {
    name: "tasks",
    // The runner's own first queries, asked here: no run cut short by a crash, no task due.
    run: async (now, signal) => {
      if (!runner.current() && !claims.interrupted().length && !tasks.store.due(now).length) {
        return;
      }
      await (await runner()).run(now, signal);
    },
    runTask: async (...args) => await (await runner()).runTask(...args),
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
          heartbeatRunnerModule(),
          heartbeatTriageModule(),
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
    const { sourceJobs } = await sourceJobsModule();
    // The email channel's mail is the channel's, never an event (its owner test loads with it).
    const channelMail = config.channels.email
      ? (await ownerMailModule()).channelMailTest(config)
      : undefined;
    jobs.push(
      ...sourceJobs({
        ...await sourceParts(parts),
        env: parts.env,
        secrets: parts.secrets,
        channelMail,
      }),
    );
  }
  if (config.checks.length) {
    const { checkJobs } = await checkJobsModule();
    jobs.push(...checkJobs({
      ...await sourceParts(parts),
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
    const { githubJobs } = await githubSetupModule();
    jobs.push(...githubJobs(await sourceParts(parts)));
  } else if (config.github.enabled) {
    parts.logger.debug("no GitHub source", { reason: gh.problem });
  }
  return jobs;
}

/** What every source's jobs are built from (the sources' stores built now, on first use). */
async function sourceParts(parts: ScheduledWorkParts) {
  const { config, queue, clock, logger } = parts;
  return { config, stores: await parts.sourceStores(), queue, clock, logger };
}

/** The digests job (its module loaded only when daily or weekly digests are on). */
async function digestJobsWhenConfigured(parts: ScheduledWorkParts): Promise<TickJob[]> {
  if (!parts.config.digests.daily && !parts.config.digests.weekly) return [];
  const { digestJobs } = await digestSetupModule();
  return digestJobs({
    ...await sourceParts(parts),
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
    scheduledBackupModule(),
    maintenanceModule(),
    versionModule(),
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

/** The task runner's module, loaded with the first task that runs. */
function taskRunnerModule(): Promise<typeof import("../application/task_runner.ts")> {
  return import(new URL("../application/task_runner.ts", import.meta.url).href);
}

/** The heartbeat runner's module, loaded with the first heartbeat. */
function heartbeatRunnerModule(): Promise<typeof import("../application/heartbeat_runner.ts")> {
  return import(new URL("../application/heartbeat_runner.ts", import.meta.url).href);
}

/** The heartbeat's triage module, loaded with the heartbeat runner. */
function heartbeatTriageModule(): Promise<typeof import("../application/heartbeat_triage.ts")> {
  return import(new URL("../application/heartbeat_triage.ts", import.meta.url).href);
}

/** The mail and calendar jobs' module, loaded when either is configured. */
function sourceJobsModule(): Promise<typeof import("../sources/source_jobs.ts")> {
  return import(new URL("../sources/source_jobs.ts", import.meta.url).href);
}

/** The email channel's owner test, loaded when the email channel is on. */
function ownerMailModule(): Promise<typeof import("../channels/email/owner_mail.ts")> {
  return import(new URL("../channels/email/owner_mail.ts", import.meta.url).href);
}

/** The custom checks' jobs module, loaded when checks are configured. */
function checkJobsModule(): Promise<typeof import("../sources/checks/check_jobs.ts")> {
  return import(new URL("../sources/checks/check_jobs.ts", import.meta.url).href);
}

/** GitHub's jobs module, loaded when GitHub is on and gh is installed. */
function githubSetupModule(): Promise<typeof import("../sources/github/github_setup.ts")> {
  return import(new URL("../sources/github/github_setup.ts", import.meta.url).href);
}

/** The digests' module, loaded when daily or weekly digests are on. */
function digestSetupModule(): Promise<typeof import("../sources/digests/digest_setup.ts")> {
  return import(new URL("../sources/digests/digest_setup.ts", import.meta.url).href);
}

/** The scheduled backup's module, loaded when `backup.every_hours` is set. */
function scheduledBackupModule(): Promise<typeof import("../adapters/backup/scheduled_backup.ts")> {
  return import(new URL("../adapters/backup/scheduled_backup.ts", import.meta.url).href);
}

/** The database's maintenance module (its backup), loaded with the scheduled backup. */
function maintenanceModule(): Promise<typeof import("../adapters/sqlite/maintenance.ts")> {
  return import(new URL("../adapters/sqlite/maintenance.ts", import.meta.url).href);
}

/** Radar's version module, loaded with the scheduled backup. */
function versionModule(): Promise<typeof import("../version.ts")> {
  return import(new URL("../version.ts", import.meta.url).href);
}
