/**
 * What the dashboard needs from the rest of Radar, as small interfaces. `createApp(deps)` never
 * opens the database or reads files itself: the composition root hands these in. The daemon,
 * plugin and log views are optional; pages say "not running" / "not available" when absent.
 */
import type { ChannelStatus } from "../src/core/channel_stores.ts";
import type { AgentDependencies } from "../src/core/agent_types.ts";
import type { ChatModel } from "../src/core/chat_model.ts";
import type { LoadedConfig } from "../src/config/loader.ts";
import type {
  Clock,
  ConversationArchive,
  FactArchive,
  Logger,
  ToolCallRecord,
} from "../src/core/ports.ts";
import type { ToolOutcome } from "../src/core/tool.ts";
import type { McpServerSummary, PluginApi } from "../src/core/plugin_state.ts";
import type { HookedMemory } from "../src/core/hooked_memory.ts";
import type { WidgetSource } from "../src/plugins/widget.ts";
import type { PendingEvent } from "../src/core/heartbeat.ts";
import type { MonitorRecord, RunRecord, TaskRecord } from "../src/core/schedule_ports.ts";
import type { BudgetReport } from "../src/core/budget.ts";
import type { EvalHistory } from "../src/core/eval_records.ts";
import type { PersonalityCatalog } from "../src/personalities/personality.ts";
import type { DigestArchive, SourceHealthRecord } from "../src/core/source_ports.ts";
import type { Away } from "../src/away/mod.ts";
import type { MoneyBook } from "../src/money/mod.ts";
import type { WatcherReport } from "../src/sources/watched_folders.ts";

/** A value or a promise of it: views may be backed by sync SQLite or by async work. */
export type Maybe<T> = T | Promise<T>;

/** The config file behind the effective configuration, for /config. */
export interface ConfigFile {
  /** The effective configuration now (re-read after a save). */
  current(): LoadedConfig;
  /** Where a save writes: the file in use, or the default location when running on defaults. */
  targetPath(): string;
  /** The file's text, or undefined when it does not exist yet. */
  readText(): string | undefined;
  /** Validates `text` exactly as the CLI would; throws ConfigError with the CLI's message. */
  validate(text: string): LoadedConfig;
  /** Names of the environment variables that override the file right now (never values). */
  overrides(): string[];
  /** Writes validated text (atomically) and applies what can be applied without a restart. */
  save(text: string): Maybe<{ applied: string[]; needsRestart: string[] }>;
}

/** A notification sent (ntfy or other). */
export interface SentNotification {
  at: string;
  title: string;
  body: string;
  delivered: boolean;
  /** Where its delivery stands (retried after a failure; undeliverable after the last try). */
  delivery: "delivered" | "sending" | "retrying" | "undeliverable";
  /** The HTTP status or the error. */
  detail?: string;
}

/** The daemon's state and controls (present when `radar serve` runs the scheduler). */
export interface DaemonView {
  state(): Maybe<{ running: boolean; startedAt?: string; heartbeatEnabled: boolean }>;
  lastHeartbeat(): Maybe<RunRecord | undefined>;
  nextHeartbeat(): Maybe<string | undefined>;
  recentNotifications(limit: number): Maybe<SentNotification[]>;
  pendingEvents(limit: number): Maybe<PendingEvent[]>;
  tasks(): Maybe<TaskRecord[]>;
  /** Tokens of unattended runs today and per day against `budget:` (absent: not shown). */
  budget?(): Maybe<BudgetReport | undefined>;
  monitors(): Maybe<MonitorRecord[]>;
  /** Adds a task; throws an Error with one readable line when the schedule is invalid. */
  addTask(task: { name: string; schedule: string; prompt: string }): Maybe<number>;
  setTaskEnabled(id: number, enabled: boolean): Maybe<boolean>;
  runTaskNow(id: number): Maybe<void>;
  removeTask(id: number): Maybe<boolean>;
  /** Adds a monitor; throws an Error with one readable line when invalid. */
  addMonitor(monitor: { url: string; every: string; selector?: string; name?: string }): Maybe<
    number
  >;
  setMonitorEnabled(id: number, enabled: boolean): Maybe<boolean>;
  checkMonitorNow(id: number): Maybe<void>;
  removeMonitor(id: number): Maybe<boolean>;
  /** The folder watchers and their counters (files seen, last reconcile, found by it). */
  watchers?(): Maybe<WatcherReport[]>;
}

/** Plugins and their reviews: the plugin API's calls the dashboard makes. */
export type PluginsView = Pick<
  PluginApi,
  "list" | "pendingReviews" | "details" | "approve" | "reject" | "enable" | "disable"
>;

/** The agent log and the tool audit trail. */
export interface LogsView {
  /** The last `lines` lines of the agent log containing `filter` (case-insensitive). */
  agentLog(options: { lines: number; filter?: string }): Maybe<string[]>;
  toolAudit(
    options: { limit: number; tool?: string; failedOnly?: boolean },
  ): Maybe<ToolCallRecord[]>;
}

/** Everything `createApp` needs. */
export interface WebDependencies {
  conversations: ConversationArchive;
  facts: FactArchive;
  /** Facts behind the memory hook points (absent: `facts` with no hooks). */
  memory?: HookedMemory;
  config: ConfigFile;
  /** Agent loop dependencies for a chat run (same loop as the CLI). */
  agent: () => AgentDependencies;
  model: ChatModel;
  clock: Clock;
  logger: Logger;
  /** The dashboard token (never empty: configured, or generated in the data folder). */
  authToken: string;
  daemon?: DaemonView;
  plugins?: PluginsView;
  /** Dashboard widgets of enabled plugins (under `radar serve`). */
  widgets?: WidgetSource;
  logs?: LogsView;
  /** A conversation's tool call outcomes from the audit trail, oldest first. */
  toolOutcomes?: (conversationId: number) => Array<{ tool: string; outcome: ToolOutcome }>;
  /** Counts that other concerns add to the dashboard (e.g. tools). */
  toolCount?: () => number;
  /** Agent Skills found (read-only list on /plugins). */
  skills?: () => SkillView[];
  /** MCP servers (read-only list on /plugins). */
  mcpServers?: () => Promise<McpServerSummary[]>;
  /** Stored `radar eval` runs (/eval). */
  evalRuns?: EvalHistory;
  /** Daily and weekly digests (/summaries). */
  digests?: DigestsView;
  /** Health of the event sources, the records `radar status` prints (secrets masked). */
  sourceHealth?: () => Maybe<SourceHealthRecord[]>;
  /** The chat channels' state (Telegram, Matrix, email), as `radar status` prints it. */
  channels?: () => ChannelStatus[];
  /** Personalities (/personalities): list, edit, create, activate, delete. */
  personalities?: PersonalityCatalog;
  /** Heartbeat events a hook set aside (the home page's card and its "Put back" button). */
  setAside?: SetAsideView;
  /** Pending approvals, standing grants and file changes (/approvals, the phone's buttons). */
  away?: AwayView;
  /** `web.public_url`: its host name is answered too (a reverse proxy or VPN to loopback). */
  publicUrl?: string;
  /**
   * Bank statements (/money): the monthly report, transactions, category corrections (the ledger
   * loads with the first page that asks).
   */
  money?: () => Promise<MoneyView>;
  /** The one line about a damaged database (Radar stopped writing to it), shown on every page. */
  databaseProblem?: () => Maybe<string | undefined>;
}

/** What /approvals and the phone's buttons work on: acting while away's face, and the home. */
export interface AwayView extends Pick<Away, "approvals" | "grants" | "journal" | "undo"> {
  /** The home folder (paths are shown with ~). */
  home: string;
}

/** What /money reads and changes of the money ledger. */
export type MoneyView = Pick<
  MoneyBook,
  "report" | "transactions" | "categorize" | "categories" | "currentMonth"
>;

/** Events set aside after 3 heartbeats in a row a `pre_agent_run` hook blocked. */
export interface SetAsideView {
  /** How many, the newest hook message, and the newest `limit` events. */
  summary(limit: number): Maybe<{ count: number; lastReason?: string; events: PendingEvent[] }>;
  /** Puts every set-aside event back in the queue (`radar heartbeat requeue`); how many. */
  requeue(): Maybe<number>;
}

/** The digests' store, read-only. */
export type DigestsView = Pick<DigestArchive, "list" | "search">;

/** One Agent Skill as the dashboard lists it. */
export interface SkillView {
  name: string;
  description: string;
  source: string;
  /** What it needs that is missing here (empty: usable). */
  missing: string[];
}
