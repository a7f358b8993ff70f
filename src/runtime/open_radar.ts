/**
 * THE composition root: `openRadar` builds every adapter and service once, from config, and
 * returns the facade the CLI commands, the daemon (`radar serve`) and the dashboard all use.
 * What a run of the agent needs (the personalities, tools, MCP, plugins, the browser) is a part
 * built on first use, its modules loaded at run time: agent_stack.ts. Where a request is
 * assembled: `agent()` (agent_dependencies.ts: model, tools, prompt).
 */
import type { DatabaseSync } from "node:sqlite";
import { damagedDatabaseLine, DatabaseDamagedError } from "../core/errors.ts";
import type { LoadedConfig } from "../config/loader.ts";
import { loadRememberedConfig } from "../config/remembered_config.ts";
import { readTextFileIfExists } from "../config/config_file.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_types.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { AuditTrail, Clock, ConversationArchive, FactArchive, Logger } from "../core/ports.ts";
import { ToolRegistry } from "../core/tool_registry.ts";
import { Secrets } from "../core/secrets.ts";
import { configSecretValues } from "../config/secrets.ts";
import type { PluginSystem } from "../plugins/plugin_system.ts";
import type { AgentOptions } from "./agent_dependencies.ts";
import { type Hooks, hookToolGate, hookToolObserver } from "../core/hooks.ts";
import { createHooks } from "../hooks/create_hooks.ts";
import { SkillCatalog } from "../skills/skill_catalog.ts";
import { skillLibrary } from "../skills/skill_files.ts";
import type { SkillRoot } from "../skills/skill_roots.ts";
import { LiveSkillRoots } from "../skills/live_skill_roots.ts";
import { applyLiveConfig } from "./live_config.ts";
import type { SkillLibrary } from "../core/system_prompt.ts";
import { openCoreAdapters } from "./core_adapters.ts";
import { runtimeLogging } from "./runtime_logging.ts";
import { type ProcessIdentity, processIdentity, type RadarOptions } from "./radar_options.ts";
import {
  type ScheduledWork,
  scheduledWork,
  unattendedBudget,
  type WorkServices,
  workServices,
} from "./scheduled_work.ts";
import { denoResolver } from "../adapters/network/network_guard.ts";
import { integrityLine, quickCheck } from "../adapters/sqlite/maintenance.ts";
import { stopWriting } from "../adapters/sqlite/database_file.ts";
import { type DamageRecord, knownDamage, recordDamage } from "../adapters/sqlite/damage_marker.ts";
import { onDamage, readOnlyReason } from "../adapters/sqlite/storage_failure.ts";
import type { Notifier } from "../core/notifier.ts";
import { SqliteConversationRuns } from "../adapters/sqlite/conversation_runs.ts";
import { transaction } from "../adapters/sqlite/write.ts";
import type { DigestArchive, SourceHealthReport } from "../core/source_ports.ts";
import { SqliteMcpApprovals } from "../adapters/sqlite/mcp_approvals.ts";
import type { McpApprovals } from "../mcp/approval.ts";
import type { EvalHistory } from "../core/eval_records.ts";
import type { McpServerSummary } from "../core/plugin_state.ts";
import type { PersonalityCatalog } from "../personalities/personality.ts";
import type { FilePersonalityCatalog } from "../personalities/personality_catalog.ts";
import { type Away, buildAway } from "../away/mod.ts";
import { sqliteAwayStores } from "../adapters/sqlite/away_stores.ts";
import { moneyOnFirstUse } from "./money_on_first_use.ts";
import type { ChannelParts } from "./channel_parts.ts";
import { openChannelParts } from "./channel_choice.ts";
import { onFirstUse } from "./first_use.ts";
import type { AgentStack } from "./agent_stack.ts";

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

/** The personalities: list, show, create, edit, remove, use, and what `radar status` says. */
export type Personalities =
  & PersonalityCatalog
  & Pick<FilePersonalityCatalog, "problem" | "editableText">;

/** Everything a command, the daemon or the dashboard needs, built once per process. */
export interface Radar extends WorkServices, ScheduledWork {
  loaded: LoadedConfig;
  config: RadarConfig;
  dataDir: string;
  databasePath: string;
  conversations: ConversationArchive;
  facts: FactArchive;
  model: ChatModel;
  clock: Clock;
  logger: Logger;
  /** Every secret known (the config's, and each one read since start): masked at every exit. */
  secrets: Secrets;
  /** The tool audit trail (`radar log tools`, /logs). */
  toolCalls: AuditTrail;
  /** Every hook point's handlers: config rules, and the plugins' hooks once they are loaded. */
  hooks: Hooks;
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
  /**
   * The plugin system (undefined when `plugins.enabled` is false), loaded on first use: its
   * enabled plugins read and their hooks registered; their tools join with the agent stack.
   */
  plugins(): Promise<PluginSystem | undefined>;
  /** Daily and weekly digests: list, search, write now. */
  digests: DigestArchive;
  /** The event sources' health records (`radar status`, the dashboard's Sources card). */
  sourceHealth: SourceHealthReport;
  /** Acting while away: pending approvals, standing grants, the file changes and their undo. */
  away: Away;
  /** MCP servers as `radar status` and the dashboard list them (mcp_views.ts loads on the first). */
  mcp: { approvals: McpApprovals; servers(): Promise<McpServerSummary[]> };
  /** This process as runs and locks record it. */
  process: ProcessIdentity;
  database: DatabaseHealth;
  /** Notices (ntfy and the chat channels of `notifications.channels`), for what is sent outside a run. */
  notifier: Notifier;
  /** The chat channels (Telegram, Matrix, email): status, pairing, stores; run by `radar serve`. */
  channels: ChannelParts;
  /** Stored `radar eval` runs (the dashboard's Eval page); the store loads on the first call. */
  evalRuns(): Promise<EvalHistory>;
  /** Runs `work` in one database transaction (bulk imports and benches). */
  batch<T>(work: () => T): T;
  /**
   * Personalities, loaded on first use: list, show, create, edit, remove, use; `problem()` for
   * `radar status`, `editableText()` for `radar personality edit` (a broken file can be fixed).
   */
  personalities(): Promise<Personalities>;
  /**
   * The agent stack, loaded and built on first use (the first run, `radar tools`, the dashboard):
   * `agent()` for one run's dependencies, every tool, memory search, the browser.
   */
  agentStack(): Promise<AgentStack>;
  /**
   * Agent loop dependencies for one run (the agent stack's `agent`, loading it on first use):
   * the personality's prompt, model, temperature and tools (a personality that names nothing
   * rejects with one readable line); `historyMessages` override for heartbeat windows.
   */
  agent(overrides?: AgentOptions): Promise<AgentDependencies>;
  /** Stops the plugin hosts, browsers and MCP servers started, and closes the database (idempotent). */
  close(): void;
}

/**
 * Opens Radar as one straight sequence of builders, each using only what is built above it:
 * config and secrets → logging → the database, stores and models → the chat channels' notifier
 * → hooks and skills → the tool registry (empty) → the budget and money → the plugins and the
 * personalities (each built on first use) → the work services → memory search and the tools
 * (on first use) → acting while away → the agent stack (on first use) → the scheduled work →
 * the facade. A part built on first use loads its modules then (`onFirstUse`, agent_stack.ts):
 * an idle daemon and a command that runs no agent never load them.
 */
export async function openRadar(options: RadarOptions): Promise<Radar> {
  const loaded = options.loaded ?? await loadRememberedConfig({
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
  const core = await openCoreAdapters(loaded, options, { clock, logger, secrets });
  const { db, conversations, facts, toolCalls, sourceStores, model, fetch: fetcher } = core;
  toolCalls.prune();
  // Every notice goes through ntfy and the chat channels `notifications.channels` names (their
  // stores load only when a channel is configured).
  const channels = await openChannelParts({ config, db, ntfy: core.notifier, clock });
  const notifier = channels.notifier;
  // Listing and searching read the store; the first write loads the digest writer.
  const digestWriter = onFirstUse(async () =>
    (await digestSetupModule()).digestArchive({
      config,
      stores: await sourceStores(),
      model,
      clock,
      secrets,
    })
  );
  const digests: DigestArchive = {
    list: (limit) => core.digestStore.list(limit),
    search: (text, limit) => core.digestStore.search(text, limit),
    write: async (period, from, to, signal) =>
      await (await digestWriter()).write(period, from, to, signal),
  };
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
  const gates = [hookToolGate(hooks)];
  const observers = [hookToolObserver(hooks)];
  const budget = unattendedBudget({
    config,
    db,
    clock,
    logger,
    notifier,
    outbox: core.outbox,
    process,
  });
  // Money's modules and stores load when first asked for (its ledger, or its job with work).
  const money = moneyOnFirstUse({
    config,
    db,
    sources: sourceStores,
    queue: core.queue,
    model: budget.counted("money", core.fastModel ?? model),
    budget,
    clock,
    logger,
    env: options.env,
  });
  // Loaded (and started, when the tools were built before it) on first use; a run's parts get it
  // only when some plugin is enabled, else a stand-in that reads through it once it is loaded.
  let startPluginsOnLoad = false;
  let loadedPlugins: PluginSystem | undefined;
  const plugins = onFirstUse(async () => {
    loadedPlugins = (await pluginPartsModule()).loadPluginSystem({
      config,
      configPath: loaded.path,
      dataDir,
      db,
      env: options.env,
      cwd: options.cwd,
      clock,
      logger,
      hooks,
      registry,
      audit: toolCalls,
    });
    if (startPluginsOnLoad) loadedPlugins?.start();
    return loadedPlugins;
  });
  const runPlugins = onFirstUse(async () =>
    (await agentStackModule()).pluginsForRun({
      config,
      dataDir,
      registry,
      plugins,
      startOnLoad: () => {
        startPluginsOnLoad = true;
        return loadedPlugins;
      },
    })
  );
  const personalities = onFirstUse(async () =>
    (await agentStackModule()).personalitySetup({
      config,
      dataDir,
      env: options.env,
      facts,
      conversations,
      clock,
      logger,
      fetch: fetcher,
      model,
      modelInjected: options.model !== undefined,
      secrets,
      skills: skills.library,
      plugins: await runPlugins(),
      registry,
    })
  );
  const services = workServices({
    ...core,
    config,
    clock,
    process,
    personalityKnown: async (name) => (await personalities()).personalities.known(name),
    money,
    budget,
  });
  const embeddings = onFirstUse(async () =>
    (await embeddingPartsModule()).embeddingParts(config, db, {
      facts,
      digests,
      fetch: fetcher,
      logger,
      clock,
      secrets,
    })
  );
  const mcpApprovals = new SqliteMcpApprovals(db);
  const resolve = options.resolve ?? denoResolver;
  const awayStores = sqliteAwayStores(db);
  const tools = onFirstUse(async () =>
    (await agentStackModule()).buildTools({
      config,
      configPath: loaded.path,
      dataDir,
      env: options.env,
      cwd: options.cwd,
      facts,
      clock,
      logger,
      secrets,
      fetch: fetcher,
      resolve,
      usersNetwork: options.usersNetwork,
      notifier,
      hooks,
      registry,
      skills: skills.library,
      visionModel: core.visionModel && budget.counted("vision", core.visionModel),
      work: services,
      journal: awayStores.journal,
      mcpApprovals,
      plugins: await runPlugins(),
      embeddings: await embeddings(),
    })
  );
  const { away, changeNotices, upkeep } = buildAway({
    config,
    stores: awayStores,
    files: { config, configPath: loaded.path, dataDir, env: options.env, cwd: options.cwd },
    clock,
    logger,
    conversations,
    audit: toolCalls,
    tools: async () => (await tools()).registry,
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
  const agentStack = onFirstUse(async () =>
    (await agentStackModule()).buildAgentStack({
      config,
      facts,
      conversations,
      clock,
      secrets,
      audit: toolCalls,
      hooks,
      gates,
      observers,
      guard: await away.guard(),
      elapsed: process.elapsed,
      runs: conversationRuns,
      skills: skills.library,
      plugins: await runPlugins(),
      personalities: await personalities(),
      embeddings: await embeddings(),
      tools: await tools(),
    })
  );
  const agent = async (overrides?: AgentOptions) => (await agentStack()).agent(overrides);
  const work = scheduledWork({
    ...core,
    runs: services.runs,
    tasks: services.tasks,
    sideEffects: services.sideEffects,
    env: options.env,
    notifier,
    config,
    clock,
    logger,
    agent,
    process,
    resolve,
    configPath: loaded.path,
    dataDir,
    embedNew: async (signal) => (await embeddings()).embedNew?.(signal),
    secrets,
    money,
    budget,
    changeNotices,
    upkeep,
    approvals: away.approvals,
  });
  const mcpServers = async () => (await mcpViewsModule()).mcpServerViews(config, mcpApprovals);
  const sourceHealth = onFirstUse(async () =>
    (await sourceHealthModule()).sourceHealthReport({
      config,
      stores: await sourceStores(),
      mcpServers,
      secrets,
      more: money.health,
    })
  );
  let closed = false;
  return {
    ...services,
    ...work,
    away,
    loaded,
    config,
    dataDir,
    databasePath: core.databasePath,
    conversations,
    facts,
    model,
    clock,
    logger,
    secrets,
    toolCalls,
    hooks,
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
    sourceHealth: { records: async (env) => (await sourceHealth()).records(env) },
    process,
    database: databaseHealth(db, dataDir, core.databasePath, config),
    notifier,
    channels,
    evalRuns: onFirstUse(async () => new (await evalStoreModule()).SqliteEvalStore(db), {
      retry: true,
    }),
    batch: (run) => transaction(db, run),
    personalities: async () => (await personalities()).personalities.catalog,
    agentStack,
    agent,
    close() {
      if (closed) return;
      closed = true;
      tools.current()?.close();
      void plugins.current()?.stop();
      db.close();
    },
  };
}

/** The agent stack's module, loaded at run time by the first part that needs it. */
function agentStackModule(): Promise<typeof import("./agent_stack.ts")> {
  return import(new URL("./agent_stack.ts", import.meta.url).href);
}

/** The MCP servers' views, loaded when they are first listed. */
function mcpViewsModule(): Promise<typeof import("../mcp/mcp_views.ts")> {
  return import(new URL("../mcp/mcp_views.ts", import.meta.url).href);
}

/** The eval runs' store, loaded on first use. */
function evalStoreModule(): Promise<typeof import("../adapters/sqlite/eval_store.ts")> {
  return import(new URL("../adapters/sqlite/eval_store.ts", import.meta.url).href);
}

/** The digests' module, loaded by the first digest written. */
function digestSetupModule(): Promise<typeof import("../sources/digests/digest_setup.ts")> {
  return import(new URL("../sources/digests/digest_setup.ts", import.meta.url).href);
}

/** The plugin system's module, loaded on first use. */
function pluginPartsModule(): Promise<typeof import("./plugin_parts.ts")> {
  return import(new URL("./plugin_parts.ts", import.meta.url).href);
}

/** The embeddings' module, loaded on first use. */
function embeddingPartsModule(): Promise<typeof import("./embedding_parts.ts")> {
  return import(new URL("./embedding_parts.ts", import.meta.url).href);
}

/** The sources' health report, loaded on first use. */
function sourceHealthModule(): Promise<typeof import("../sources/source_health.ts")> {
  return import(new URL("../sources/source_health.ts", import.meta.url).href);
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
