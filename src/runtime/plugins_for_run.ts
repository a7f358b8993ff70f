/**
 * The plugin system as a run's parts see it (the personalities, the tools, the agent stack). With
 * no plugin enabled, a run needs none of its modules: the parts get a stand-in that answers as
 * the loaded system would (no personality files, no prompt variables, `create_tool` offered from
 * its definition when allowed), and reads through the system once something loads it (the
 * daemon's plugin watcher, `radar plugin`, the dashboard, or the first `create_tool` call, whose
 * system's own `create_tool` then answers in its place). Otherwise the parts get the system.
 */
import { defineTool } from "../core/tool_definition.ts";
import { failed, type Tool } from "../core/tool.ts";
import type { PromptVariableSource } from "../core/system_prompt.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import type { RadarConfig } from "../config/schema.ts";
import { createToolSpec } from "../plugins/create_tool_spec.ts";
import {
  ensurePluginDirectories,
  folderNames,
  pluginDirectories,
} from "../plugins/plugin_directories.ts";
import type { PluginSystem } from "../plugins/plugin_system.ts";
import type { FirstUse } from "./first_use.ts";

/** What a run's parts use of the plugin system. */
export interface RunPlugins {
  /** The enabled plugins (their personality files). */
  enabled: PluginSystem["enabled"];
  /** Their prompt variables. */
  hooks: PromptVariableSource;
  /** Registers the plugins' tools (and `create_tool` when allowed) after the others. */
  start(): void;
}

/** What the stand-in is built over. */
export interface RunPluginsOptions {
  config: RadarConfig;
  dataDir: string;
  registry: ToolRegistry;
  /** The plugin system, loaded on first use (undefined when `plugins.enabled` is false). */
  plugins: FirstUse<PluginSystem | undefined>;
  /**
   * Asks the system to start (register its tools) when it loads, as the tools are built now;
   * returns the system when it is loaded already (then the caller starts it).
   */
  startOnLoad(): PluginSystem | undefined;
}

/**
 * The system when it is loaded or some plugin is enabled (loading it then), else the stand-in.
 * Like the system, the stand-in makes the plugin folders.
 */
export async function pluginsForRun(
  options: RunPluginsOptions,
): Promise<RunPlugins | undefined> {
  const { config, plugins } = options;
  const loaded = plugins.current();
  if (loaded || !config.plugins.enabled) return loaded;
  const dirs = pluginDirectories(options.dataDir);
  if (folderNames(dirs.enabled).length) return await plugins();
  ensurePluginDirectories(dirs);
  return {
    enabled: () => plugins.current()?.enabled() ?? [],
    hooks: {
      variables: async (context) => (await plugins.current()?.hooks.variables(context)) ?? {},
    },
    start() {
      const system = options.startOnLoad();
      if (system) system.start();
      else if (config.plugins.allow_llm_generated) {
        options.registry.register(createToolOnFirstCall(options));
      }
    },
  };
}

/** `create_tool` whose first call loads the plugin system, whose own `create_tool` answers. */
function createToolOnFirstCall(options: RunPluginsOptions): Tool {
  const standIn: Tool = defineTool({
    ...createToolSpec,
    async run(args, context) {
      await options.plugins(); // starts as it loads: its create_tool takes this one's place
      const tool = options.registry.get(standIn.name);
      if (!tool || tool === standIn) return failed("create_tool: the plugin system did not start");
      return await tool.run(args, context);
    },
  });
  return standIn;
}
