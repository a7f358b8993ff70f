/**
 * What the dashboard needs from the rest of Radar, as small interfaces. `createApp(deps)` never
 * opens the database or reads files itself: the composition root hands these in. The daemon,
 * plugin and log views are optional; pages say "not running" / "not available" when absent.
 */
import type { AgentDependencies } from "../src/core/agent_loop.ts";
import type { ChatModel } from "../src/core/chat_model.ts";
import type { LoadedConfig } from "../src/config/loader.ts";
import type {
  Clock,
  ConversationSummary,
  Fact,
  FactStore,
  Logger,
  MessageRecord,
  StoredMessage,
} from "../src/core/ports.ts";
import type { ConversationKind, ToolOutcome } from "../src/core/tool.ts";

/** A value or a promise of it: views may be backed by sync SQLite or by async work. */
export type Maybe<T> = T | Promise<T>;

/** Conversations as the history and chat pages read and change them. */
export interface ConversationBrowser {
  list(query: {
    kind?: ConversationKind;
    search?: string;
    limit: number;
    offset?: number;
  }): ConversationSummary[];
  count(kind?: ConversationKind): number;
  conversation(id: number): ConversationSummary | undefined;
  messages(conversationId: number): StoredMessage[];
  createConversation(kind: ConversationKind, title: string, at: Date): number;
  appendMessage(conversationId: number, message: MessageRecord): number;
  delete(id: number): boolean;
}

/** Facts as the memory page reads and changes them: the core port plus lookup by id. */
export interface FactBrowser extends FactStore {
  getFact(id: number): Fact | undefined;
}

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

/** One heartbeat tick as the daemon recorded it. */
export interface HeartbeatTick {
  at: string;
  /** What woke it: "schedule", "manual", "events: 3 new files"… */
  reason: string;
  /** "skipped" ticks made no model call (nothing pending, quiet hours). */
  outcome: "ran" | "skipped" | "failed";
  /** One line: what it did or why it skipped. */
  summary: string;
  promptTokens?: number;
  completionTokens?: number;
  durationMs?: number;
  conversationId?: number;
}

/** A pending event waiting for the next heartbeat. */
export interface PendingEvent {
  id: number | string;
  source: string;
  summary: string;
  at: string;
}

/** A notification sent (ntfy or other). */
export interface SentNotification {
  at: string;
  title: string;
  body: string;
  delivered: boolean;
}

/** A scheduled task. */
export interface ScheduledTask {
  id: number;
  name: string;
  /** Cron expression, "every 2h" or "at 2026-12-01 09:00". */
  schedule: string;
  prompt: string;
  enabled: boolean;
  nextRun?: string;
  lastRun?: string;
  lastResult?: string;
  lastOutcome?: "ok" | "error";
}

/** A URL monitor. */
export interface UrlMonitor {
  id: number;
  name: string;
  url: string;
  every: string;
  selector?: string;
  enabled: boolean;
  nextCheck?: string;
  lastCheck?: string;
  lastResult?: string;
}

/** The daemon's state and controls (present when `radar serve` runs the scheduler). */
export interface DaemonView {
  state(): Maybe<{ running: boolean; startedAt?: string; heartbeatEnabled: boolean }>;
  lastHeartbeat(): Maybe<HeartbeatTick | undefined>;
  nextHeartbeat(): Maybe<string | undefined>;
  recentNotifications(limit: number): Maybe<SentNotification[]>;
  pendingEvents(limit: number): Maybe<PendingEvent[]>;
  tasks(): Maybe<ScheduledTask[]>;
  monitors(): Maybe<UrlMonitor[]>;
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
}

/** An installed plugin. */
export interface PluginSummary {
  name: string;
  version: string;
  description: string;
  trust: "sandbox" | "local";
  enabled: boolean;
  status: "approved" | "pending" | "rejected" | "failed";
  /** Granted permissions in plain words ("read files under ~/Downloads"). */
  permissions: string[];
  tools: string[];
}

/** A plugin waiting for a decision. */
export interface PluginReview {
  name: string;
  version: string;
  description: string;
  trust: "sandbox" | "local";
  requestedAt: string;
  files: Array<{ path: string; content: string }>;
  tests?: { passed: boolean; output: string };
  /** Permissions in plain words compared with the approved version (if any). */
  permissionDiff: { added: string[]; removed: string[]; unchanged: string[] };
  /** Warnings to show prominently ("WARNING: local trust…"). */
  warnings?: string[];
  /** Problems that keep it from being approved. */
  errors?: string[];
}

/** Plugins and their reviews (present when the plugin host is available). */
export interface PluginsView {
  list(): Maybe<PluginSummary[]>;
  pendingReviews(): Maybe<PluginReview[]>;
  approve(name: string): Maybe<void>;
  reject(name: string, reason: string): Maybe<void>;
  setEnabled(name: string, enabled: boolean): Maybe<void>;
}

/** One row of the tool audit trail, as /logs shows it. */
export interface AuditRow {
  at: string;
  tool: string;
  conversationId?: number;
  arguments: string;
  durationMs: number;
  outcome: ToolOutcome;
  result: string;
}

/** The agent log and the tool audit trail. */
export interface LogsView {
  /** The last `lines` lines of the agent log containing `filter` (case-insensitive). */
  agentLog(options: { lines: number; filter?: string }): Maybe<string[]>;
  toolAudit(options: { limit: number; tool?: string; failedOnly?: boolean }): Maybe<AuditRow[]>;
}

/** Everything `createApp` needs. */
export interface WebDependencies {
  conversations: ConversationBrowser;
  facts: FactBrowser;
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
  logs?: LogsView;
  /** A conversation's tool call outcomes from the audit trail, oldest first. */
  toolOutcomes?: (conversationId: number) => Array<{ tool: string; outcome: ToolOutcome }>;
  /** Counts that other concerns add to the dashboard (e.g. tools). */
  toolCount?: () => number;
  /** Agent Skills found (read-only list on /plugins). */
  skills?: () => SkillView[];
  /** MCP servers (read-only list on /plugins). */
  mcpServers?: () => McpServerView[];
}

/** One MCP server as the dashboard lists it (the program's name only: argv may hold secrets). */
export interface McpServerView {
  name: string;
  program: string;
  state: "approved" | "pending" | "changed";
  grants: string;
  tools: number;
}

/** One Agent Skill as the dashboard lists it. */
export interface SkillView {
  name: string;
  description: string;
  source: string;
  /** What it needs that is missing here (empty: usable). */
  missing: string[];
}
