/**
 * Everything plugins need at run time, built once by the composition root: the lifecycle
 * manager, the warm host pool, registration of enabled plugin tools (and `create_tool` when
 * `plugins.allow_llm_generated` is on), and `refresh()` which the daemon calls (or
 * `watchPluginFolders` calls for it) to pick up folder changes without a restart.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { createToolTool } from "./create_tool.ts";
import { createPluginApi, type PluginApi } from "./plugin_api.ts";
import { PluginManager } from "./plugin_manager.ts";
import type { PluginRecords } from "./plugin_records.ts";
import { PluginHostPool, registerPluginTools } from "./plugin_tools.ts";

/** What the plugin system is built from. */
export interface PluginSystemOptions {
  dataDir: string;
  records: PluginRecords;
  config: RadarConfig["plugins"];
  env: Record<string, string | undefined>;
  clock: Clock;
  logger: Logger;
  registry: ToolRegistry;
}

/** The running plugin system. */
export interface PluginSystem {
  manager: PluginManager;
  pool: PluginHostPool;
  /** The dashboard's read/write API (list, pending reviews, approve, reject, enable, disable). */
  api: PluginApi;
  /** Picks up folder changes and re-registers plugin tools; returns what changed. */
  refresh(): Promise<string[]>;
  /** Stops every plugin host. */
  stop(): Promise<void>;
}

/** Builds the plugin system and registers the enabled plugins' tools (no host starts yet). */
export function createPluginSystem(options: PluginSystemOptions): PluginSystem {
  const manager = new PluginManager(options);
  const limits = manager.limits();
  const pool = new PluginHostPool({ ...limits, idleMs: options.config.idle_seconds * 1000 });
  const register = async () => {
    const warnings = await registerPluginTools(options.registry, manager.loadEnabled(), pool);
    for (const warning of warnings) options.logger.warn(warning);
  };
  const system: PluginSystem = {
    manager,
    pool,
    api: createPluginApi(manager, options.records, () => system.refresh()),
    async refresh() {
      const changes = manager.sync();
      for (const change of changes) options.logger.info(`plugins: ${change}`);
      await register();
      return changes;
    },
    stop: () => pool.stopAll(),
  };
  // registerPluginTools registers synchronously before its first await, so one-shot commands see
  // plugin tools as soon as this returns.
  void register();
  if (options.config.allow_llm_generated) {
    options.registry.register(createToolTool({
      manager,
      records: options.records,
      config: options.config,
      clock: options.clock,
      onEnabled: register,
    }));
  }
  return system;
}
