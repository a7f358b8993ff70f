/** The composition root: builds concrete adapters from config and hands them out as ports. */
import type { DatabaseSync } from "node:sqlite";
import { loadConfig, type LoadedConfig, readTextFileIfExists } from "../config/loader.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_loop.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { AuditSink, Clock, Logger } from "../core/ports.ts";
import { type ToolGate, ToolRegistry } from "../core/tool_registry.ts";
import type { SqliteConversationStore } from "../adapters/sqlite/conversation_store.ts";
import type { SqliteFactStore } from "../adapters/sqlite/fact_store.ts";
import type { SqliteAuditStore } from "../adapters/sqlite/audit_store.ts";
import { builtinTools } from "../tools/index.ts";
import { calendarReaderFor, mailReaderFor } from "../sources/source_readers.ts";
import { createPdfReader } from "../adapters/pdf/subprocess_pdf_reader.ts";
import { SqlitePluginRecords } from "../adapters/sqlite/plugin_records.ts";
import { createPluginSystem, type PluginSystem } from "../plugins/plugin_system.ts";
import { agentDependencies } from "./agent_dependencies.ts";
import { findToolsTool } from "../tools/find_tools.ts";
import { embeddingParts } from "./embedding_parts.ts";
import { type Hooks, hookToolGate, hookToolObserver } from "../core/hooks.ts";
import { createHooks } from "../hooks/create_hooks.ts";
import { registerPluginHooks } from "../plugins/plugin_hooks.ts";
import { SkillCatalog } from "../skills/skill_catalog.ts";
import { skillLibrary } from "../skills/skill_files.ts";
import { type SkillRoot, skillRoots } from "../skills/skill_roots.ts";
import type { SkillLibrary } from "../core/skills_prompt.ts";
import { openCoreAdapters, runtimeLogging } from "./core_adapters.ts";
import { SqliteTaskStore } from "../adapters/sqlite/task_store.ts";
import { SqliteMonitorStore } from "../adapters/sqlite/monitor_store.ts";
import { TaskService } from "../daemon/task_service.ts";
import { SqliteTaskOriginStore } from "../adapters/sqlite/task_origin_store.ts";
import { MonitorService } from "../daemon/monitor_service.ts";
import { registerMcpTools } from "../mcp/register_mcp_tools.ts";
import { SqliteMcpApprovals } from "../adapters/sqlite/mcp_approvals.ts";

/** How to open the runtime. */
export interface RuntimeOptions {
  configPath?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Extra log writers (the daemon adds its log file). */
  logWriters?: Array<(line: string) => void>;
  /** False when the caller already reported the config warnings (default true). */
  reportConfigWarnings?: boolean;
  /** Log level override (`--verbose` → debug). */
  logLevel?: "debug" | "info" | "warn" | "error";
  fetch?: typeof fetch;
  clock?: Clock;
}

/** Everything a command needs, built once per process. */
export interface Runtime {
  loaded: LoadedConfig;
  config: RadarConfig;
  dataDir: string;
  databasePath: string;
  db: DatabaseSync;
  conversations: SqliteConversationStore;
  facts: SqliteFactStore;
  model: ChatModel;
  registry: ToolRegistry;
  clock: Clock;
  logger: Logger;
  audit?: AuditSink;
  /** The tool audit trail (`radar log tools`). */
  toolCalls: SqliteAuditStore;
  gates: ToolGate[];
  /** Every hook point's handlers: config rules and the plugins' hooks. */
  hooks: Hooks;
  /** Agent Skills usable here (absent when `skills.enabled` is false). */
  skills?: SkillLibrary;
  /** Every discovered skill, usable or not, with warnings (`radar skill list`). */
  skillCatalog: SkillCatalog;
  /** The folders searched for skills. */
  skillRoots: SkillRoot[];
  /** Plugins (absent when `plugins.enabled` is false). */
  plugins?: PluginSystem;
  /** Agent loop dependencies; `historyMessages` override for heartbeat windows. */
  agent(overrides?: { historyMessages?: number }): AgentDependencies;
  /** Closes the database (idempotent). */
  close(): void;
}

/** Opens the runtime: config, data directory, database, model client, tools. */
export function openRuntime(options: RuntimeOptions): Runtime {
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
  const { databasePath, db, conversations, facts, toolCalls, model, fetch: fetcher } =
    openCoreAdapters(loaded, options, { clock, logger });
  toolCalls.prune();
  const { memory, toolRanker } = embeddingParts(config, db, {
    facts,
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
  const roots = skillRoots(config, dataDir, options.env, options.cwd);
  const skillCatalog = new SkillCatalog(() => roots, options.env, (warnings) => {
    for (const warning of warnings) logger.warn(warning);
  });
  const skills = config.skills.enabled ? skillLibrary(skillCatalog) : undefined;
  for (
    const tool of builtinTools({
      config,
      configPath: loaded.path,
      dataDir,
      facts,
      clock,
      logger,
      fetch: fetcher,
      env: options.env,
      cwd: options.cwd,
      tasks: new TaskService(
        new SqliteTaskStore(db),
        clock,
        config.radar.timezone || undefined,
        new SqliteTaskOriginStore(db),
      ),
      monitors: new MonitorService(new SqliteMonitorStore(db), config, clock),
      pdfReader: createPdfReader(config.tools.pdf, options.env),
      memory,
      mail: mailReaderFor(config, options.env),
      calendar: calendarReaderFor(config, options.env, fetcher),
      hooks,
      skills,
    })
  ) registry.register(tool);
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
    new SqliteMcpApprovals(db),
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
  let skillsWarned = false;
  const runtime: Runtime = {
    loaded,
    config,
    dataDir,
    databasePath,
    db,
    conversations,
    facts,
    model,
    registry,
    clock,
    logger,
    audit: toolCalls,
    toolCalls,
    gates: [hookToolGate(hooks)],
    hooks,
    skills,
    skillCatalog,
    skillRoots: roots,
    plugins,
    agent: (overrides) =>
      agentDependencies({
        config,
        model,
        registry,
        conversations,
        facts,
        clock,
        audit: runtime.audit,
        gates: runtime.gates,
        observers: [hookToolObserver(hooks)],
        hooks,
        promptVariables: plugins?.hooks,
        toolRanker,
        skills: skills ? () => skills.available() : undefined,
        warn: (line) => {
          if (!skillsWarned) logger.warn(line);
          skillsWarned = true;
        },
      }, overrides),
    close() {
      if (closed) return;
      closed = true;
      void plugins?.stop();
      void mcp.close();
      db.close();
    },
  };
  return runtime;
}
