/**
 * The plugin system as the composition root loads it, on first use (the personalities, the agent
 * stack, `radar plugin`, the dashboard's plugin pages, a change in the plugin folders): built over
 * its records, its enabled plugins read and their hooks registered. Their tools join the registry
 * when the agent stack starts it, after the built-in and MCP tools.
 */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import type { AuditSink, Clock, Logger } from "../core/ports.ts";
import type { Hooks } from "../core/hooks.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { configuredFolders } from "../config/paths.ts";
import { SqlitePluginRecords } from "../adapters/sqlite/plugin_records.ts";
import { createPluginSystem, type PluginSystem } from "../plugins/plugin_system.ts";
import { registerPluginHooks } from "../plugins/plugin_hooks.ts";

/** What the plugin system is built from. */
export interface PluginParts {
  config: RadarConfig;
  configPath?: string;
  dataDir: string;
  db: DatabaseSync;
  env: Record<string, string | undefined>;
  cwd?: string;
  clock: Clock;
  logger: Logger;
  hooks: Hooks;
  registry: ToolRegistry;
  audit: AuditSink;
}

/** The loaded plugin system, its hooks registered (undefined when `plugins.enabled` is false). */
export function loadPluginSystem(parts: PluginParts): PluginSystem | undefined {
  const { config } = parts;
  if (!config.plugins.enabled) return undefined;
  const plugins = createPluginSystem({
    dataDir: parts.dataDir,
    records: new SqlitePluginRecords(parts.db),
    config: config.plugins,
    env: parts.env,
    clock: parts.clock,
    ownPlaces: {
      configFile: parts.configPath,
      ...configuredFolders(config, parts.env, parts.cwd ?? Deno.cwd()),
    },
    logger: parts.logger,
    registry: parts.registry,
    audit: parts.audit,
  });
  plugins.load();
  registerPluginHooks(parts.hooks, plugins.hooks);
  return plugins;
}
