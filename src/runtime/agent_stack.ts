/**
 * The agent stack: what a run of the agent loop is assembled from, loaded at run time on first
 * need (openRadar's `personalities()`, its tools and `agentStack()`), so a daemon with nothing to
 * do, or a command that runs no agent, never loads it. Three builders, in build order: the
 * personalities and their prompts; the tools (the browser, the built-in tools, the approved MCP
 * servers' tools, `find_tools`, and last the plugins'); the agent builder and memory.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_types.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { Clock, ConversationArchive, FactArchive, Logger } from "../core/ports.ts";
import { findToolsTool } from "../tools/find_tools.ts";
import type { ToolGate, ToolObserver, ToolRegistry } from "../core/tool_registry.ts";
import type { Secrets } from "../core/secrets.ts";
import type { Hooks } from "../core/hooks.ts";
import { HookedMemory } from "../core/hooked_memory.ts";
import type { SkillLibrary } from "../core/system_prompt.ts";
import { estimateTokens } from "../core/context_fit.ts";
import { type Notifier, notifyOnce } from "../core/notifier.ts";
import { firstLine } from "../core/errors.ts";
import type { BrowserAvailability } from "../core/browser.ts";
import type { Resolver } from "../adapters/network/network_guard.ts";
import type { SqliteConversationRuns } from "../adapters/sqlite/conversation_runs.ts";
import type { RunPlugins } from "./plugins_for_run.ts";
export { pluginsForRun } from "./plugins_for_run.ts";
import type { McpApprovals } from "../mcp/approval.ts";
import type { ActionJournal } from "../away/mod.ts";
import { calendarReaderFor, githubReaderFor, mailReaderFor } from "../sources/source_readers.ts";
import type { ToolDependencies } from "../tools/dependencies.ts";
import { builtinTools } from "../tools/index.ts";
import {
  agentBuilder,
  type AgentOptions,
  type SystemPrompts,
  systemPrompts,
} from "./agent_dependencies.ts";
import { maskedPromptVariables } from "./masked_ports.ts";
import { type PersonalityParts, personalityParts } from "./personality_parts.ts";
import { browserParts } from "./browser_parts.ts";
import { libraryOnFirstUse } from "./library_parts.ts";
import type { EmbeddingParts } from "./embedding_parts.ts";
import type { WorkServices } from "./scheduled_work.ts";
import { onceEach } from "./runtime_logging.ts";

/** The personalities and the system prompt of each (`radar.personalities()`). */
export interface PersonalitySetup {
  prompts: SystemPrompts;
  personalities: PersonalityParts;
}

/** What the personalities are built from. */
export interface PersonalitySetupParts {
  config: RadarConfig;
  dataDir: string;
  env: Record<string, string | undefined>;
  facts: FactArchive;
  conversations: ConversationArchive;
  clock: Clock;
  logger: Logger;
  fetch: typeof fetch;
  /** The main model (a personality naming none gets it). */
  model: ChatModel;
  /** True when the caller injected the model: front matter cannot swap it. */
  modelInjected: boolean;
  secrets: Secrets;
  skills?: SkillLibrary;
  /** The plugin system as a run sees it (absent: plugins are off): their personality files. */
  plugins?: RunPlugins;
  registry: ToolRegistry;
}

/** Builds each personality's prompt, then the catalog and the per-run choices. */
export function personalitySetup(parts: PersonalitySetupParts): PersonalitySetup {
  const { config, conversations, skills } = parts;
  const prompts = systemPrompts({
    config,
    facts: parts.facts,
    clock: parts.clock,
    skills: skills && (() => skills.available()),
    warn: onceEach(parts.logger),
    conversationStartedAt: (id) => {
      const started = conversations.conversation(id)?.createdAt;
      return started ? new Date(started) : undefined;
    },
  });
  const personalities = personalityParts({
    config,
    dataDir: parts.dataDir,
    env: parts.env,
    logger: parts.logger,
    fetch: parts.fetch,
    mainModel: parts.model,
    modelInjected: parts.modelInjected,
    secrets: parts.secrets,
    plugins: parts.plugins,
    registry: parts.registry,
    promptTokens: (personality) => estimateTokens(prompts(personality)()),
  });
  return { prompts, personalities };
}

/** The tools, registered in their offering order, and the browser the `browser` tool drives. */
export interface ToolParts {
  /** Every tool: built-in, the approved MCP servers', `find_tools`, the plugins'. */
  registry: ToolRegistry;
  /** Which browser (or why none) and the open sessions. */
  browser: { availability(): BrowserAvailability; openSessions(): number };
  /** Stops the browsers and the MCP servers started. */
  close(): void;
}

/** What the tools are built from. */
export interface ToolPartsParts {
  config: RadarConfig;
  configPath?: string;
  dataDir: string;
  env: Record<string, string | undefined>;
  cwd?: string;
  facts: FactArchive;
  clock: Clock;
  logger: Logger;
  secrets: Secrets;
  fetch: typeof fetch;
  resolve: Resolver;
  /** See `RadarOptions.usersNetwork`. */
  usersNetwork?: (address: string) => boolean;
  notifier: Notifier;
  hooks: Hooks;
  /** The one registry: filled here. */
  registry: ToolRegistry;
  skills?: SkillLibrary;
  /** `llm.models.vision`, counted against the budget (absent: not configured). */
  visionModel?: ChatModel;
  work: Pick<WorkServices, "tasks" | "monitors" | "sideEffects" | "money">;
  /** Where move_file and write_file record their changes for undo. */
  journal: ActionJournal;
  mcpApprovals: McpApprovals;
  plugins?: RunPlugins;
  embeddings: EmbeddingParts;
}

/**
 * Registers the tools in their offering order: built-in, the approved MCP servers', `find_tools`,
 * then the plugins' (the plugin system starts here).
 */
export async function buildTools(parts: ToolPartsParts): Promise<ToolParts> {
  const { config, registry, secrets, work } = parts;
  const browser = browserParts({
    config,
    dataDir: parts.dataDir,
    env: parts.env,
    resolve: parts.resolve,
    clock: parts.clock,
    usersNetwork: parts.usersNetwork,
  });
  const tools: ToolDependencies = {
    config,
    configPath: parts.configPath,
    dataDir: parts.dataDir,
    facts: parts.facts,
    clock: parts.clock,
    logger: parts.logger,
    fetch: parts.fetch,
    notifier: parts.notifier,
    sideEffectLog: work.sideEffects,
    env: parts.env,
    secrets,
    cwd: parts.cwd,
    tasks: work.tasks,
    monitors: work.monitors,
    ...libraryOnFirstUse(config, parts.env),
    visionModel: parts.visionModel,
    memory: parts.embeddings.memory,
    mail: mailReaderFor(config, parts.env, secrets),
    calendar: calendarReaderFor(config, parts.env, parts.fetch, secrets),
    github: githubReaderFor(config, parts.env),
    hooks: parts.hooks,
    skills: parts.skills,
    browser: browser.sessions && { sessions: browser.sessions, check: browser.check },
    journal: parts.journal,
  };
  for (const tool of builtinTools(tools)) registry.register(tool);
  // The last built-in: bank statements, once money is configured or a statement imported (the
  // tool's module and money's load then).
  if (work.money.inUse()) {
    registry.register((await moneyToolModule()).moneyTool({ money: await work.money() }));
  }
  const mcp = await mcpTools(parts, tools);
  registry.register(findToolsTool(() => registry.list()));
  parts.plugins?.start();
  return {
    registry,
    browser: {
      availability: browser.availability,
      openSessions: () => browser.sessions?.open ?? 0,
    },
    close() {
      void browser.sessions?.closeAll();
      void mcp?.close();
    },
  };
}

/** What the agent stack hands out (`radar.agentStack()`). */
export interface AgentStack extends Omit<ToolParts, "close"> {
  /**
   * Agent loop dependencies for one run: the personality's prompt, model, temperature and tools
   * (throws one readable line when the personality names nothing); `historyMessages` override
   * for heartbeat windows.
   */
  agent(overrides?: AgentOptions): AgentDependencies;
  /** Facts behind pre_memory_store / post_memory_search (`radar memory`, the dashboard). */
  memory: HookedMemory;
}

/** What the agent stack is built from: the kernel's parts and the parts loaded before it. */
export interface AgentStackParts {
  config: RadarConfig;
  facts: FactArchive;
  conversations: ConversationArchive;
  clock: Clock;
  secrets: Secrets;
  audit: AgentDependencies["audit"];
  hooks: Hooks;
  gates: ToolGate[];
  observers: ToolObserver[];
  /** The run guard of each run (acting while away's). */
  guard: NonNullable<AgentDependencies["guard"]>;
  elapsed: () => number;
  runs: SqliteConversationRuns;
  skills?: SkillLibrary;
  plugins?: RunPlugins;
  personalities: PersonalitySetup;
  embeddings: EmbeddingParts;
  tools: ToolParts;
}

/** Builds the agent builder over the tools, and memory behind its hook points. */
export function buildAgentStack(parts: AgentStackParts): AgentStack {
  const { config, hooks, plugins, skills } = parts;
  const { prompts, personalities } = parts.personalities;
  const agent = agentBuilder(
    config,
    {
      store: parts.conversations,
      clock: parts.clock,
      audit: parts.audit,
      gates: parts.gates,
      observers: parts.observers,
      hooks,
      promptVariables: plugins && maskedPromptVariables(plugins.hooks, parts.secrets),
      toolRanker: parts.embeddings.toolRanker,
      elapsed: parts.elapsed,
      guard: parts.guard,
      runs: parts.runs,
      promptReads: () =>
        skills?.available().some((skill) => skill.installed)
          ? [{ source: "skills you installed", label: "public" }]
          : [],
    },
    prompts,
    personalities,
  );
  return {
    agent,
    registry: parts.tools.registry,
    browser: parts.tools.browser,
    memory: new HookedMemory({ facts: parts.facts, hooks, search: parts.embeddings.memory }),
  };
}

/** The money tool's module (and through it money's face): loaded once money is in use. */
function moneyToolModule(): Promise<typeof import("../tools/money.ts")> {
  return import(new URL("../tools/money.ts", import.meta.url).href);
}

/** The MCP client's module, loaded only when a server is configured or approved. */
function registerMcpToolsModule(): Promise<typeof import("../mcp/register_mcp_tools.ts")> {
  return import(new URL("../mcp/register_mcp_tools.ts", import.meta.url).href);
}

/**
 * The approved MCP servers' tools, registered after the built-in ones; the MCP client is loaded
 * only when a server is configured or approved (none: nothing to register, nothing loaded).
 */
async function mcpTools(
  parts: ToolPartsParts,
  tools: ToolDependencies,
): Promise<{ close(): Promise<void> } | undefined> {
  if (!parts.config.mcp.servers.length && !hasApprovals(parts.mcpApprovals)) return undefined;
  const { registerMcpTools } = await registerMcpToolsModule();
  const { notifier, logger } = parts;
  return registerMcpTools(
    parts.registry,
    {
      ...tools,
      // A server whose tools changed since approval: the person hears of it once per change.
      tell: (scope, title, message) => {
        notifyOnce(
          notifier,
          parts.work.sideEffects(scope),
          { title, message, priority: "default" },
          AbortSignal.timeout(30_000),
        ).catch((error) => logger.warn(`MCP notice not sent: ${firstLine(error)}`));
      },
    },
    parts.mcpApprovals,
    logger,
  );
}

/** True when an MCP server was approved (a database that cannot say: true, MCP reports it). */
function hasApprovals(approvals: McpApprovals): boolean {
  try {
    return approvals.list().length > 0;
  } catch {
    return true;
  }
}
