/**
 * THE composition root: `openRadar` builds every adapter and service once, from config, and
 * returns the facade the CLI commands, the daemon (`radar serve`) and the dashboard all use.
 * Where a request is assembled: `agent()` (agent_dependencies.ts: model, tools, prompt).
 */
import type { DatabaseSync } from "node:sqlite";
import { notifyOnce } from "../core/notifier.ts";
import { damagedDatabaseLine, DatabaseDamagedError, firstLine } from "../core/errors.ts";
import { loadConfig, type LoadedConfig } from "../config/loader.ts";
import { readTextFileIfExists } from "../config/config_file.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_types.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { AuditTrail, Clock, ConversationArchive, FactArchive, Logger } from "../core/ports.ts";
import { ToolRegistry } from "../core/tool_registry.ts";
import { Secrets } from "../core/secrets.ts";
import { maskedPromptVariables } from "./masked_ports.ts";
import { configSecretValues } from "../config/secrets.ts";
import { calendarReaderFor, mailReaderFor } from "../sources/source_readers.ts";
import { githubReaderFor } from "../sources/github/github_access.ts";
import { buildLibrary } from "../library/mod.ts";
import { SqlitePluginRecords } from "../adapters/sqlite/plugin_records.ts";
import { configuredFolders } from "../config/paths.ts";
import { createPluginSystem, type PluginSystem } from "../plugins/plugin_system.ts";
import { agentBuilder, type AgentOptions, systemPrompts } from "./agent_dependencies.ts";
import { embeddingParts } from "./embedding_parts.ts";
import { type Hooks, hookToolGate, hookToolObserver } from "../core/hooks.ts";
import { createHooks } from "../hooks/create_hooks.ts";
import { HookedMemory } from "../core/hooked_memory.ts";
import { registerPluginHooks } from "../plugins/plugin_hooks.ts";
import { SkillCatalog } from "../skills/skill_catalog.ts";
import { skillLibrary } from "../skills/skill_files.ts";
import type { SkillRoot } from "../skills/skill_roots.ts";
import { LiveSkillRoots } from "../skills/live_skill_roots.ts";
import { applyLiveConfig } from "./live_config.ts";
import type { SkillLibrary } from "../core/system_prompt.ts";
import { onceEach, openCoreAdapters, runtimeLogging } from "./core_adapters.ts";
import { type ProcessIdentity, processIdentity, type RadarOptions } from "./radar_options.ts";
import { type ScheduledWork, scheduledWork, unattendedBudget } from "./scheduled_work.ts";
import { denoResolver } from "../adapters/network/network_guard.ts";
import { integrityLine, quickCheck } from "../adapters/sqlite/maintenance.ts";
import { stopWriting } from "../adapters/sqlite/database.ts";
import { type DamageRecord, knownDamage, recordDamage } from "../adapters/sqlite/damage_marker.ts";
import { onDamage, readOnlyReason } from "../adapters/sqlite/storage_failure.ts";
import type { Notifier } from "../core/notifier.ts";
import { SqliteConversationRuns } from "../adapters/sqlite/conversation_runs.ts";
import { transaction } from "../adapters/sqlite/write.ts";
import { sourceHealthReport } from "../sources/source_health.ts";
import { digestArchive } from "../sources/digests/digest_setup.ts";
import type { DigestArchive, SourceHealthReport } from "../core/source_ports.ts";
import type { ToolDependencies } from "../tools/dependencies.ts";
import { builtinTools } from "../tools/index.ts";
import { findToolsTool } from "../tools/find_tools.ts";
import { registerMcpTools } from "../mcp/register_mcp_tools.ts";
import { SqliteMcpApprovals } from "../adapters/sqlite/mcp_approvals.ts";
import type { McpApprovals } from "../mcp/approval.ts";
import type { EvalHistory } from "../core/eval_records.ts";
import { SqliteEvalStore } from "../adapters/sqlite/eval_store.ts";
import { mcpServerViews } from "../mcp/mcp_views.ts";
import type { McpServerSummary } from "../core/plugin_state.ts";
import type { PersonalityCatalog } from "../personalities/personality.ts";
import { estimateTokens } from "../core/context_fit.ts";
import type { FilePersonalityCatalog } from "../personalities/personality_catalog.ts";
import { personalityParts } from "./personality_parts.ts";
import { browserParts } from "./browser_parts.ts";
import type { BrowserAvailability } from "../core/browser.ts";
import { type Away, buildAway } from "../away/mod.ts";
import { sqliteAwayStores } from "../adapters/sqlite/stores.ts";
import { buildMoney } from "../money/mod.ts";
import { sqliteMoneyStores } from "../adapters/sqlite/stores.ts";
import { type ChannelParts, channelParts } from "./channel_parts.ts";

/** The database's health: `radar status`, and the daemon's guard against a damaged file. */
export interface DatabaseHealth {
  /** "integrity: ok" or what is wrong (a full check only for small files). */
  integrity(sizeBytes: number): string;
  /** Why the database is open read-only, or undefined. */
  readOnly(): string | undefined;
  /** PRAGMA quick_check now: ok, or SQLite's first problem. */
  check(): { ok: boolean; problem?: string };
  /** The damage recorded for this file (`radar.db.damaged`), while it names this file. */
  damage(): DamageRecord | undefined;
  /** Remembers the damage, and refuses every write from now on (one line each). */
  stopWriting(problem: string): void;
  /**
   * Calls `listener` (SQLite's words) whenever a statement meets corruption; returns the
   * unsubscribe.
   */
  onDamage(listener: (detail: string) => void): () => void;
  /** The one line for the recorded damage, with "Radar stopped writing to it", or undefined. */
  problem(): string | undefined;
}

/** Everything a command, the daemon or the dashboard needs, built once per process. */
export interface Radar extends ScheduledWork {
  loaded: LoadedConfig;
  config: RadarConfig;
  dataDir: string;
  databasePath: string;
  conversations: ConversationArchive;
  facts: FactArchive;
  model: ChatModel;
  registry: ToolRegistry;
  clock: Clock;
  logger: Logger;
  /** Every secret known (the config's, and each one read since start): masked at every exit. */
  secrets: Secrets;
  /** The tool audit trail (`radar log tools`, /logs). */
  toolCalls: AuditTrail;
  /** Every hook point's handlers: config rules and the plugins' hooks. */
  hooks: Hooks;
  /** Facts behind pre_memory_store / post_memory_search (`radar memory`, the dashboard). */
  memory: HookedMemory;
  /** Agent Skills usable here (absent when `skills.enabled` is false). */
  skills?: SkillLibrary;
  /** Every discovered skill, usable or not, with warnings (`radar skill list`). */
  skillCatalog: SkillCatalog;
  /** The folders searched for skills now (they follow a live `skills.dirs` change). */
  readonly skillRoots: SkillRoot[];
  /** Calls `listener` when the skill folders change; returns the function that stops it. */
  onSkillRootsChanged(listener: () => void): () => void;
  /**
   * Applies the live keys of a changed config to the running one (the dashboard's /config save
   * under `radar serve`) and what depends on them (the skill folders); returns the keys applied.
   */
  applyLiveConfig(next: RadarConfig): string[];
  /** Plugins (absent when `plugins.enabled` is false). */
  plugins?: PluginSystem;
  /** Daily and weekly digests: list, search, write now. */
  digests: DigestArchive;
  /** The event sources' health records (`radar status`, the dashboard's Sources card). */
  sourceHealth: SourceHealthReport;
  /** Acting while away: pending approvals, standing grants, the file changes and their undo. */
  away: Away;
  /** MCP servers as `radar status` and the dashboard list them. */
  mcp: { approvals: McpApprovals; servers(): McpServerSummary[] };
  /** This process as runs and locks record it. */
  process: ProcessIdentity;
  database: DatabaseHealth;
  /** Notices (ntfy and the chat channels of `notifications.channels`), for what is sent outside a run. */
  notifier: Notifier;
  /** The chat channels (Telegram, Matrix, email): status, pairing, stores; run by `radar serve`. */
  channels: ChannelParts;
  /** Stored `radar eval` runs (the dashboard's Eval page). */
  evalRuns: EvalHistory;
  /** Runs `work` in one database transaction (bulk imports and benches). */
  batch<T>(work: () => T): T;
  /**
   * Personalities: list, show, create, edit, remove, use; `problem()` for `radar status`,
   * `editableText()` for `radar personality edit` (a broken file can still be fixed).
   */
  personalities: PersonalityCatalog & Pick<FilePersonalityCatalog, "problem" | "editableText">;
  /**
   * Agent loop dependencies for one run: the personality's prompt, model, temperature and tools
   * (throws one readable line when the personality names nothing); `historyMessages` override
   * for heartbeat windows.
   */
  agent(overrides?: AgentOptions): AgentDependencies;
  /** The browser the `browser` tool drives: which one (or why none) and the open sessions. */
  browser: { availability(): BrowserAvailability; openSessions(): number };
  /** Stops the plugin hosts and browsers and closes the database (idempotent). */
  close(): void;
}

/**
 * Opens Radar as one straight sequence of builders, each using only what is built above it:
 * config and secrets → logging → the database, stores and models → memory → hooks and skills →
 * the tool registry and the plugin system → acting while away → personalities → the agent builder
 * → scheduled work → the tools (built-in, MCP, find_tools, then the plugins') → the facade.
 */
export function openRadar(options: RadarOptions): Radar {
  const loaded = loadConfig({
    explicitPath: options.configPath,
    env: options.env,
    cwd: options.cwd,
    readTextFile: readTextFileIfExists,
  });
  const { config, dataDir } = loaded;
  options.adjustConfig?.(config, dataDir);
  // The one set of secrets: the config's, and each one read later (passwords, key commands).
  const secrets = new Secrets(configSecretValues(config));
  const { clock, logger } = runtimeLogging(config, options, secrets);
  if (options.reportConfigWarnings !== false) {
    for (const warning of loaded.warnings) logger.warn(warning);
  }
  const core = openCoreAdapters(loaded, options, { clock, logger, secrets });
  const { db, conversations, facts, toolCalls, sourceStores, model, fetch: fetcher } = core;
  toolCalls.prune();
  // Every notice goes through ntfy and the chat channels `notifications.channels` names.
  const channels = channelParts({ config, db, ntfy: core.notifier, clock });
  const notifier = channels.notifier;
  const digests = digestArchive({ config, stores: sourceStores, model, clock, secrets });
  const embeddings = embeddingParts(config, db, {
    facts,
    digests,
    fetch: fetcher,
    logger,
    clock,
    secrets,
  });
  const hooks = createHooks({
    config,
    clock,
    logger,
    audit: toolCalls,
    env: options.env,
    cwd: options.cwd,
  });
  const skills = skillParts(config, dataDir, options, logger);
  const process = processIdentity(options.process);
  const conversationRuns = new SqliteConversationRuns(db, clock, process);
  closeInterruptedRuns(conversationRuns, logger);
  const registry = new ToolRegistry({ secrets });
  const plugins = config.plugins.enabled
    ? createPluginSystem({
      dataDir,
      records: new SqlitePluginRecords(db),
      config: config.plugins,
      env: options.env,
      clock,
      ownPlaces: {
        configFile: loaded.path,
        ...configuredFolders(config, options.env, options.cwd ?? Deno.cwd()),
      },
      logger,
      registry,
      audit: toolCalls,
    })
    : undefined;
  const gates = [hookToolGate(hooks)];
  const observers = [hookToolObserver(hooks)];
  const { away, changeNotices, upkeep } = buildAway({
    config,
    stores: sqliteAwayStores(db),
    files: { config, configPath: loaded.path, dataDir, env: options.env, cwd: options.cwd },
    clock,
    logger,
    conversations,
    audit: toolCalls,
    registry,
    gates,
    observers,
    elapsed: process.elapsed,
    secrets,
    notifier,
    outbox: core.outbox,
    monitors: core.monitors,
    process,
    firings: core.taskFirings,
  });
  const budget = unattendedBudget({
    config,
    db,
    clock,
    logger,
    notifier,
    outbox: core.outbox,
    process,
  });
  const money = buildMoney({
    config,
    stores: sqliteMoneyStores(db, sourceStores),
    queue: core.queue,
    model: budget.counted("money", core.fastModel ?? model),
    budget,
    clock,
    logger,
    env: options.env,
  });
  const prompts = systemPrompts({
    config,
    facts,
    clock,
    skills: skills.library && (() => skills.library!.available()),
    warn: onceEach(logger),
    conversationStartedAt: (id) => {
      const started = conversations.conversation(id)?.createdAt;
      return started ? new Date(started) : undefined;
    },
  });
  const personalities = personalityParts({
    config,
    dataDir,
    env: options.env,
    logger,
    fetch: fetcher,
    mainModel: model,
    modelInjected: options.model !== undefined,
    secrets,
    plugins,
    registry,
    promptTokens: (personality) => estimateTokens(prompts(personality)()),
  });
  const agent = agentBuilder(
    config,
    {
      store: conversations,
      clock,
      audit: toolCalls,
      gates,
      observers,
      hooks,
      promptVariables: plugins && maskedPromptVariables(plugins.hooks, secrets),
      toolRanker: embeddings.toolRanker,
      elapsed: process.elapsed,
      guard: away.guard(),
      runs: conversationRuns,
      promptReads: () =>
        skills.library?.available().some((skill) => skill.installed)
          ? [{ source: "skills you installed", label: "public" }]
          : [],
    },
    prompts,
    personalities,
  );
  const work = scheduledWork({
    ...core,
    env: options.env,
    notifier,
    config,
    clock,
    logger,
    agent,
    process,
    resolve: options.resolve ?? denoResolver,
    configPath: loaded.path,
    dataDir,
    personalityKnown: (name) => personalities.known(name),
    embedNew: embeddings.embedNew,
    secrets,
    money,
    budget,
    changeNotices,
    upkeep,
    approvals: away.approvals,
  });
  const browser = browserParts({
    config,
    dataDir,
    env: options.env,
    resolve: options.resolve ?? denoResolver,
    clock,
    usersNetwork: options.usersNetwork,
  });
  // The tools in their offering order: built-in, the approved MCP servers', `find_tools`; the
  // plugins' follow when the plugin system starts.
  const tools: ToolDependencies = {
    config,
    configPath: loaded.path,
    dataDir,
    facts,
    clock,
    logger,
    fetch: fetcher,
    notifier,
    sideEffectLog: work.sideEffects,
    env: options.env,
    secrets,
    cwd: options.cwd,
    tasks: work.tasks,
    monitors: work.monitors,
    ...buildLibrary(config, options.env),
    visionModel: core.visionModel && budget.counted("vision", core.visionModel),
    memory: embeddings.memory,
    mail: mailReaderFor(config, options.env, secrets),
    calendar: calendarReaderFor(config, options.env, fetcher, secrets),
    github: githubReaderFor(config, options.env),
    money: money.ledger.inUse() ? money.ledger : undefined,
    hooks,
    skills: skills.library,
    browser: browser.sessions && { sessions: browser.sessions, check: browser.check },
    journal: away.journal,
  };
  for (const tool of builtinTools(tools)) registry.register(tool);
  const mcpApprovals = new SqliteMcpApprovals(db);
  const mcp = registerMcpTools(
    registry,
    {
      ...tools,
      // A server whose tools changed since approval: the person hears of it once per change.
      tell: (scope, title, message) => {
        notifyOnce(
          notifier,
          work.sideEffects(scope),
          { title, message, priority: "default" },
          AbortSignal.timeout(30_000),
        ).catch((error) => logger.warn(`MCP notice not sent: ${firstLine(error)}`));
      },
    },
    mcpApprovals,
    logger,
  );
  registry.register(findToolsTool(() => registry.list()));
  if (plugins) {
    plugins.start();
    registerPluginHooks(hooks, plugins.hooks);
  }
  let closed = false;
  const mcpServers = () => mcpServerViews(config, mcpApprovals);
  return {
    ...work,
    away,
    loaded,
    config,
    dataDir,
    databasePath: core.databasePath,
    conversations,
    facts,
    model,
    registry,
    clock,
    logger,
    secrets,
    toolCalls,
    hooks,
    memory: new HookedMemory({ facts, hooks, search: embeddings.memory }),
    skills: skills.library,
    skillCatalog: skills.catalog,
    get skillRoots() {
      return skills.folders.current;
    },
    onSkillRootsChanged: (listener) => skills.folders.onChange(listener),
    applyLiveConfig(next) {
      const applied = applyLiveConfig(config, next);
      if (applied.includes("skills.dirs")) skills.folders.refresh();
      return applied;
    },
    plugins,
    digests,
    mcp: {
      approvals: mcpApprovals,
      servers: mcpServers,
    },
    sourceHealth: sourceHealthReport({
      config,
      stores: sourceStores,
      mcpServers,
      secrets,
      more: money.health,
    }),
    process,
    database: databaseHealth(db, dataDir, core.databasePath, config),
    notifier,
    channels,
    evalRuns: new SqliteEvalStore(db),
    batch: (run) => transaction(db, run),
    personalities: personalities.catalog,
    agent,
    browser: {
      availability: browser.availability,
      openSessions: () => browser.sessions?.open ?? 0,
    },
    close() {
      if (closed) return;
      closed = true;
      void browser.sessions?.closeAll();
      void plugins?.stop();
      void mcp.close();
      db.close();
    },
  };
}

/** The skill folders (they follow a live `skills.dirs`), their catalog, and the usable skills. */
function skillParts(
  config: RadarConfig,
  dataDir: string,
  options: RadarOptions,
  logger: Logger,
): { folders: LiveSkillRoots; catalog: SkillCatalog; library?: SkillLibrary } {
  const folders = new LiveSkillRoots(config, dataDir, options.env, options.cwd);
  const catalog = new SkillCatalog(() => folders.current, options.env, (warnings) => {
    for (const warning of warnings) logger.warn(warning);
  });
  folders.onChange(() => catalog.invalidate());
  return { folders, catalog, library: config.skills.enabled ? skillLibrary(catalog) : undefined };
}

/**
 * Marks runs whose process is gone as interrupted (every start: `radar ask` killed mid-answer is
 * shown as interrupted by the next command). A damaged database is reported; anything else
 * (another process holding the write lock) only delays it to the next start.
 */
function closeInterruptedRuns(runs: SqliteConversationRuns, logger: Logger): void {
  try {
    const found = runs.closeInterrupted();
    if (found.length) {
      logger.info("runs stopped before they finished are marked interrupted", {
        conversations: found,
      });
    }
  } catch (error) {
    if (error instanceof DatabaseDamagedError) throw error;
    logger.debug("cannot mark interrupted runs now", { error: (error as Error).message });
  }
}

function databaseHealth(
  db: DatabaseSync,
  dataDir: string,
  path: string,
  config: RadarConfig,
): DatabaseHealth {
  return {
    integrity: (sizeBytes) =>
      integrityLine(db, dataDir, sizeBytes, config.radar.timezone || undefined),
    readOnly: () => readOnlyReason(db),
    check() {
      const quick = quickCheck(db);
      return quick.ok ? { ok: true } : { ok: false, problem: quick.result };
    },
    damage: () => knownDamage(path),
    stopWriting(problem) {
      recordDamage(path, problem, new Date());
      stopWriting(db, path, problem);
    },
    onDamage: (listener) => onDamage(db, (error) => listener(error.detail)),
    problem() {
      const known = knownDamage(path);
      return known
        ? `${damagedDatabaseLine(path, known.problem)} Radar stopped writing to it.`
        : undefined;
    },
  };
}
