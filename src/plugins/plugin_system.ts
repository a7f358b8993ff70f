/**
 * Everything plugins need at run time, built once by the composition root: the lifecycle
 * manager, the warm host pool, registration of enabled plugin tools (and `create_tool` when
 * `plugins.allow_llm_generated` is on), the enabled plugins' hooks and prompt variables (as core
 * ports: a tool gate, a tool observer, a prompt variable source), their dashboard widgets, and
 * `refresh()` which the daemon calls (or `watchPluginFolders` calls for it) to pick up folder
 * changes without a restart.
 */
import type { AuditSink, Logger } from "../core/ports.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { createToolTool } from "./create_tool.ts";
import { createPluginApi } from "./plugin_api.ts";
import type { PluginApi } from "../core/plugin_state.ts";
import { PluginHooks } from "./plugin_hooks.ts";
import { PluginManager } from "./plugin_manager.ts";
import type { LoadedPlugin, PluginManagerOptions } from "./plugin_inventory.ts";
import { PluginWidgets } from "./plugin_widgets.ts";
import { ownerTag } from "../sandbox/running_hosts.ts";
import { PluginHostPool, registerPluginTools } from "./plugin_tools.ts";

/** What the plugin system is built from. */
export interface PluginSystemOptions extends PluginManagerOptions {
  logger: Logger;
  registry: ToolRegistry;
  /** Where failing hook and prompt-variable calls are recorded (tool calls: the agent loop). */
  audit?: AuditSink;
}

/** The running plugin system. */
export interface PluginSystem {
  manager: PluginManager;
  pool: PluginHostPool;
  /** Hooks (registered by `registerPluginHooks`) and prompt variables. */
  hooks: PluginHooks;
  /** Dashboard widgets of the enabled plugins (capability `widget`). */
  widgets: PluginWidgets;
  /** The dashboard's read/write API (list, pending reviews, approve, reject, enable, disable). */
  api: PluginApi;
  /** Picks up folder changes and re-registers plugin tools; returns what changed. */
  refresh(): Promise<string[]>;
  /** Stops every plugin host. */
  stop(): Promise<void>;
  /** The enabled, approved plugins as last loaded (their files are the approved bytes). */
  enabled(): LoadedPlugin[];
  /**
   * Reads the enabled plugins (their hooks, widgets and personality files); no tool is
   * registered and no host starts. What the parts that need no tools (personalities, the
   * dashboard's plugin pages, `radar plugin`) call first.
   */
  load(): void;
  /**
   * Loads the enabled plugins and registers their tools (and `create_tool` when allowed) after
   * those already in the registry; no host starts yet. Called once, after the built-in tools;
   * until then `refresh()` reloads the plugins without registering tools.
   */
  start(): void;
}

/** Builds the plugin system; `start()` loads the enabled plugins and registers their tools. */
export function createPluginSystem(options: PluginSystemOptions): PluginSystem {
  const manager = new PluginManager(options);
  const limits = manager.inventory.limits();
  const pool = new PluginHostPool({
    ...limits,
    idleMs: options.config.idle_seconds * 1000,
    owner: ownerTag(options.dataDir),
  });
  const hooks = new PluginHooks({
    pool,
    clock: options.clock,
    logger: options.logger,
    audit: options.audit,
    elapsed: () => performance.now(),
  });
  let enabled: LoadedPlugin[] = [];
  let started = false;
  const widgets = new PluginWidgets({
    pool,
    clock: options.clock,
    logger: options.logger,
    audit: options.audit,
  });
  const load = () => {
    const loaded = manager.inventory.loadEnabled();
    enabled = loaded;
    hooks.update(loaded);
    widgets.update(loaded);
    return loaded;
  };
  const register = async () => {
    const loaded = load();
    if (!started) return;
    const warnings = await registerPluginTools(options.registry, loaded, pool, {
      publicResults: () => options.config.public_results,
    });
    for (const warning of warnings) options.logger.warn(warning);
  };
  const system: PluginSystem = {
    manager,
    pool,
    hooks,
    widgets,
    api: createPluginApi(manager, options.records, () => system.refresh()),
    async refresh() {
      const changes = manager.sync();
      for (const change of changes) options.logger.info(`plugins: ${change}`);
      await register();
      return changes;
    },
    stop: () => pool.stopAll(),
    enabled: () => enabled,
    load() {
      load();
    },
    start() {
      started = true;
      // registerPluginTools registers synchronously before its first await, so one-shot commands
      // see plugin tools as soon as this returns.
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
    },
  };
  return system;
}
