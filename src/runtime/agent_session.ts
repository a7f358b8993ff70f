/**
 * What `radar ask` and `radar chat` run on. With a valid startup cache the first request goes out
 * after opening only the database and the model client; the tools, the YAML parser, the config
 * schema and the plugin system load when the model first calls a tool. Without one (first run,
 * changed config, new build, enabled plugins changed) the full runtime opens and refreshes it.
 */
import { importLazily } from "./lazy_import.ts";
import { findConfigFile, readTextFileIfExists } from "../config/config_file.ts";
import type { AgentDependencies } from "../core/agent_loop.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { SqliteConversationStore } from "../adapters/sqlite/conversation_store.ts";
import { agentDependencies, type AgentParts } from "./agent_dependencies.ts";
import { createHooks } from "../hooks/create_hooks.ts";
import { missingRequirements, skillRoots, skillStamp } from "../skills/skill_roots.ts";
import { openCoreAdapters, runtimeLogging } from "./core_adapters.ts";
import { withEnvironmentSecrets, withoutEnvironmentSecrets } from "./environment_secrets.ts";
import { catalogEntry, DeferredToolRegistry, type LoadedTools } from "./deferred_registry.ts";
import type { Runtime, RuntimeOptions } from "./runtime.ts";
import {
  pluginStamp,
  readStartupCache,
  type StartupCache,
  startupCachePath,
  startupKey,
  writeStartupCache,
} from "./startup_cache.ts";

/** The part of the runtime a conversation needs. */
export interface AgentSession {
  conversations: Pick<
    SqliteConversationStore,
    "createConversation" | "latest" | "titleIfUntitled" | "conversation"
  >;
  clock: Clock;
  logger: Logger;
  /** True when the session started from the startup cache (tests and benchmarks read it). */
  quickStart: boolean;
  agent(): AgentDependencies;
  /** Closes the database(s); idempotent. */
  close(): void;
}

/** Opens a session: from the startup cache when it is valid, else from the full runtime. */
export async function openAgentSession(options: RuntimeOptions): Promise<AgentSession> {
  const file = findConfigFile({
    explicitPath: options.configPath,
    env: options.env,
    cwd: options.cwd,
    readTextFile: readTextFileIfExists,
  });
  const key = startupKey(file, options.env, options.cwd);
  const cachePath = startupCachePath(options.env);
  const cache = readStartupCache(cachePath);
  if (
    cache?.key === key && cache.quickStart &&
    cache.plugins === pluginStamp(cache.loaded.dataDir) &&
    cache.skills.stamp ===
      skillStamp(skillRoots(cache.loaded.config, cache.loaded.dataDir, options.env, options.cwd))
  ) {
    try {
      return quickSession(cache, { ...options, configFile: file }, cachePath);
    } catch {
      // A cache whose inside does not fit (damaged or edited): the full start below reports any
      // real problem (an unusable data directory) itself, and rewrites the cache.
    }
  }
  const runtime = await openFullRuntime({ ...options, configFile: file });
  const warning = writeStartupCache(cachePath, cacheOf(key, runtime, options.env));
  if (warning) runtime.logger.debug(warning);
  return {
    conversations: runtime.conversations,
    clock: runtime.clock,
    logger: runtime.logger,
    quickStart: false,
    agent: () => runtime.agent(),
    close: () => runtime.close(),
  };
}

async function openFullRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { openRuntime } = await importLazily<typeof import("./runtime.ts")>(
    new URL("./runtime.ts", import.meta.url),
  );
  return openRuntime(options);
}

/** The cache a full runtime yields. */
function cacheOf(key: string, runtime: Runtime, env: RuntimeOptions["env"]): StartupCache {
  return {
    key,
    loaded: withoutEnvironmentSecrets(runtime.loaded, env),
    plugins: pluginStamp(runtime.dataDir),
    tools: runtime.registry.list().map(catalogEntry),
    quickStart: (runtime.plugins?.hooks.counts().promptVariables ?? 0) === 0,
    skills: {
      stamp: skillStamp(runtime.skillRoots),
      // Every valid skill with its requirements: the quick start re-checks PATH and variables.
      list: runtime.skills
        ? runtime.skillCatalog.discover().skills.map(({ name, description, requires }) => ({
          name,
          description,
          requires,
        }))
        : [],
    },
  };
}

function quickSession(
  cache: StartupCache,
  options: RuntimeOptions,
  cachePath: string,
): AgentSession {
  const loaded = withEnvironmentSecrets(cache.loaded, options.env);
  const { clock, logger } = runtimeLogging(loaded.config, options);
  let full: Runtime | undefined;
  const load = async (): Promise<LoadedTools> => {
    full = await openFullRuntime({ ...options, reportConfigWarnings: false });
    const fresh = cacheOf(cache.key, full, options.env);
    if (JSON.stringify(fresh) !== JSON.stringify(cache)) {
      logger.debug("startup cache was stale; refreshed");
      writeStartupCache(cachePath, fresh);
    }
    return { registry: full.registry, gates: full.gates, observers: full.agent().observers };
  };
  const { db, conversations, facts, toolCalls, model } = openCoreAdapters(loaded, options, {
    clock,
    logger,
  });
  const parts: AgentParts = {
    config: loaded.config,
    model,
    registry: new DeferredToolRegistry(cache.tools, load),
    conversations,
    facts,
    clock,
    audit: toolCalls,
    // Config rules only: the plugins' hooks act at the tool-call points, which load with the tools.
    skills: () =>
      cache.skills.list.filter((skill) => !missingRequirements(skill.requires, options.env).length),
    warn: (line) => logger.warn(line),
    hooks: createHooks({
      config: loaded.config,
      clock,
      logger,
      audit: toolCalls,
      env: options.env,
      cwd: options.cwd,
    }),
  };
  // Last: when anything above fails, the full start that follows prints them itself.
  for (const warning of cache.loaded.warnings) logger.warn(warning);
  let closed = false;
  return {
    conversations,
    clock,
    logger,
    quickStart: true,
    agent: () => agentDependencies(parts),
    close() {
      if (closed) return;
      closed = true;
      full?.close();
      db.close();
    },
  };
}
