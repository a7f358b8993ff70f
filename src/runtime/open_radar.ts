/**
 * THE composition root: `openRadar` builds every adapter and service once, from config, and
 * returns the facade the CLI commands, the daemon (`radar serve`) and the dashboard all use.
 * Where a request is assembled: `agent()` below (model, tools, hooks, skills, memory, prompt).
 */
import type { DatabaseSync } from "node:sqlite";
import { loadConfig, type LoadedConfig, readTextFileIfExists } from "../config/loader.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_loop.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { AuditTrail, Clock, ConversationArchive, FactArchive, Logger } from "../core/ports.ts";
import { ToolRegistry } from "../core/tool_registry.ts";
import { builtinTools } from "../tools/index.ts";
import { calendarReaderFor, mailReaderFor } from "../sources/source_readers.ts";
import { githubReaderFor } from "../sources/github/github_access.ts";
import { createPdfReader } from "../adapters/pdf/subprocess_pdf_reader.ts";
import { SqlitePluginRecords } from "../adapters/sqlite/plugin_records.ts";
import { createPluginSystem, type PluginSystem } from "../plugins/plugin_system.ts";
import { agentDependencies, type AgentOptions } from "./agent_dependencies.ts";
import { findToolsTool } from "../tools/find_tools.ts";
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
import type { SkillLibrary } from "../core/skills_prompt.ts";
import { openCoreAdapters, runtimeLogging } from "./core_adapters.ts";
import type { RadarOptions } from "./radar_options.ts";

export type { RadarOptions };
import { type ProcessIdentity, type ScheduledWork, scheduledWork } from "./scheduled_work.ts";
import { denoResolver } from "../adapters/network/network_guard.ts";
import { isProcessAlive, processStartTime } from "../adapters/os/process.ts";
import { integrityLine } from "../adapters/sqlite/maintenance.ts";
import { readOnlyBecause } from "../adapters/sqlite/database.ts";
import { transaction } from "../adapters/sqlite/write.ts";
import { sourceHealthReport } from "../sources/source_health.ts";
import { digestArchive } from "../sources/digests/digest_setup.ts";
import type { DigestArchive, SourceHealthReport } from "../core/source_ports.ts";
import { registerMcpTools } from "../mcp/register_mcp_tools.ts";
import { SqliteMcpApprovals } from "../adapters/sqlite/mcp_approvals.ts";
import type { McpApprovals } from "../mcp/approval.ts";
import type { EvalHistory } from "../core/eval_records.ts";
import { SqliteEvalStore } from "../adapters/sqlite/eval_store.ts";
import { type McpServerSummary, mcpServerViews } from "../mcp/mcp_views.ts";
import type { PersonalityCatalog } from "../core/personality.ts";
import { estimateTokens } from "../core/tokens.ts";
import type { ResolvedPersonality } from "../personalities/personality_sources.ts";
import type { FilePersonalityCatalog } from "../personalities/personality_catalog.ts";
import { personalityParts } from "./personality_parts.ts";
import { personalityNamePattern } from "../personalities/personality_file.ts";
import { browserParts } from "./browser_parts.ts";
import type { BrowserAvailability } from "../core/browser.ts";

export type { AgentOptions } from "./agent_dependencies.ts";

/** The database's health, for `radar status`. */
export interface DatabaseHealth {
  /** "integrity: ok" or what is wrong (a full check only for small files). */
  integrity(sizeBytes: number): string;
  /** Why the database is open read-only, or undefined. */
  readOnly(): string | undefined;
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
  /** MCP servers as `radar status` and the dashboard list them. */
  mcp: { approvals: McpApprovals; servers(): McpServerSummary[] };
  /** This process as runs and locks record it. */
  process: ProcessIdentity;
  database: DatabaseHealth;
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

/** Opens Radar: config, data directory, database, model client, tools, services. */
export function openRadar(options: RadarOptions): Radar {
  const loaded = loadConfig({
    explicitPath: options.configPath,
    env: options.env,
    cwd: options.cwd,
    readTextFile: readTextFileIfExists,
  });
  const { config, dataDir } = loaded;
  const { clock, logger } = runtimeLogging(config, options);
  if (options.reportConfigWarnings !== false) {
    for (const warning of loaded.warnings) logger.warn(warning);
  }
  const core = openCoreAdapters(loaded, options, { clock, logger });
  const { databasePath, db, conversations, facts, toolCalls, sourceStores, fetch: fetcher } = core;
  const model = options.model ?? core.model;
  toolCalls.prune();
  const digests = digestArchive({ config, stores: sourceStores, model, clock });
  const { memory, toolRanker, embedNew } = embeddingParts(config, db, {
    facts,
    digests,
    fetch: fetcher,
    logger,
    clock,
  });
  const registry = new ToolRegistry();
  const hooks = createHooks({
    config,
    clock,
    logger,
    audit: toolCalls,
    env: options.env,
    cwd: options.cwd,
  });
  const skillFolders = new LiveSkillRoots(config, dataDir, options.env, options.cwd);
  const skillCatalog = new SkillCatalog(() => skillFolders.current, options.env, (warnings) => {
    for (const warning of warnings) logger.warn(warning);
  });
  skillFolders.onChange(() => skillCatalog.invalidate());
  const skills = config.skills.enabled ? skillLibrary(skillCatalog) : undefined;
  const process: ProcessIdentity = {
    pid: options.process?.pid ?? Deno.pid,
    isAlive: options.process?.isAlive ?? isProcessAlive,
    // Real start times only with real liveness: a test's fake PIDs may be real processes here.
    processStart: options.process?.isAlive ? options.process.processStart : processStartTime,
    elapsed: options.process?.elapsed ?? (() => performance.now()),
  };
  const warned = new Set<string>();
  const parts = (personality: ResolvedPersonality, historyMessages?: number) =>
    agentDependencies({
      config,
      model: personalities.modelFor(personality),
      registry: personalities.registryFor(registry, personality),
      conversations,
      facts,
      clock,
      audit: toolCalls,
      gates: [hookToolGate(hooks)],
      observers: [hookToolObserver(hooks)],
      hooks,
      promptVariables: plugins?.hooks,
      toolRanker,
      skills: skills ? () => skills.available() : undefined,
      warn: (line) => {
        // Once per process and line (skills left out, a personality past the budget).
        if (!warned.has(line)) logger.warn(line);
        warned.add(line);
      },
      personality,
      conversationStartedAt: (id) => {
        const started = conversations.conversation(id)?.createdAt;
        return started ? new Date(started) : undefined;
      },
    }, { historyMessages });
  const personalities = personalityParts({
    config,
    dataDir,
    env: options.env,
    cwd: options.cwd,
    logger,
    fetch: fetcher,
    mainModel: model,
    modelInjected: options.model !== undefined,
    plugins: () => plugins,
    promptTokens: (personality) => estimateTokens(parts(personality).systemPrompt()),
  });
  const agent = (overrides?: AgentOptions) => {
    const personality = personalities.catalog.forRun(
      overrides?.personality
        ? { name: overrides.personality, origin: overrides.personalityFrom ?? "option" }
        : undefined,
    );
    return { ...parts(personality, overrides?.historyMessages), elapsed: process.elapsed };
  };
  const work = scheduledWork({
    env: options.env,
    notifier: core.notifier,
    config,
    db,
    sourceStores,
    conversations,
    clock,
    logger,
    agent,
    process,
    fetch: fetcher,
    resolve: options.resolve ?? denoResolver,
    configPath: loaded.path,
    dataDir,
    model,
    // Names only: a task (one day the model's too) never points at an arbitrary file by path.
    personalityKnown: (name) => {
      if (!personalityNamePattern.test(name)) return false;
      try {
        return personalities.catalog.show(name) !== undefined;
      } catch {
        return false;
      }
    },
    fastModel: core.fastModel,
    embedNew,
  });
  const browser = browserParts({
    config,
    dataDir,
    env: options.env,
    resolve: options.resolve ?? denoResolver,
    clock,
  });
  for (
    const tool of builtinTools({
      config,
      configPath: loaded.path,
      dataDir,
      facts,
      clock,
      logger,
      fetch: fetcher,
      notifier: core.notifier,
      sideEffectLog: work.sideEffects,
      env: options.env,
      cwd: options.cwd,
      tasks: work.tasks,
      monitors: work.monitors,
      pdfReader: createPdfReader(config.tools.pdf, options.env),
      visionModel: core.visionModel,
      memory,
      mail: mailReaderFor(config, options.env),
      calendar: calendarReaderFor(config, options.env, fetcher),
      github: githubReaderFor(config, options.env),
      hooks,
      skills,
      browser: browser.sessions && { sessions: browser.sessions, check: browser.check },
    })
  ) registry.register(tool);
  const mcpApprovals = new SqliteMcpApprovals(db);
  const mcp = registerMcpTools(
    registry,
    {
      config,
      configPath: loaded.path,
      dataDir,
      env: options.env,
      cwd: options.cwd,
      fetch: fetcher,
    },
    mcpApprovals,
    logger,
  );
  registry.register(findToolsTool(() => registry.list()));
  const plugins = config.plugins.enabled
    ? createPluginSystem({
      dataDir,
      records: new SqlitePluginRecords(db),
      config: config.plugins,
      env: options.env,
      clock,
      logger,
      registry,
      audit: toolCalls,
    })
    : undefined;
  if (plugins) registerPluginHooks(hooks, plugins.hooks);
  let closed = false;
  const mcpServers = () => mcpServerViews(config, mcpApprovals);
  return {
    ...work,
    loaded,
    config,
    dataDir,
    databasePath,
    conversations,
    facts,
    model,
    registry,
    clock,
    logger,
    toolCalls,
    hooks,
    memory: new HookedMemory({ facts, hooks, search: memory }),
    skills,
    skillCatalog,
    get skillRoots() {
      return skillFolders.current;
    },
    onSkillRootsChanged: (listener) => skillFolders.onChange(listener),
    applyLiveConfig(next) {
      const applied = applyLiveConfig(config, next);
      if (applied.includes("skills.dirs")) skillFolders.refresh();
      return applied;
    },
    plugins,
    digests,
    mcp: {
      approvals: mcpApprovals,
      servers: mcpServers,
    },
    sourceHealth: sourceHealthReport({ config, stores: sourceStores, mcpServers }),
    process,
    database: databaseHealth(db, dataDir),
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

function databaseHealth(db: DatabaseSync, dataDir: string): DatabaseHealth {
  return {
    integrity: (sizeBytes) => integrityLine(db, dataDir, sizeBytes),
    readOnly: () => readOnlyBecause(db),
  };
}
