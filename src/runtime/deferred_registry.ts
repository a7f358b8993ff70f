/**
 * A tool registry that offers tools from the startup cache's catalog and loads the real tools
 * (and the plugin system's gates and observers) only when the model first calls one.
 */
import type { ToolCall } from "../core/messages.ts";
import { failed, type Tool } from "../core/tool.ts";
import {
  type ExecuteOptions,
  type ToolExecution,
  type ToolGate,
  type ToolObserver,
  ToolRegistry,
} from "../core/tool_registry.ts";
import type { CatalogTool } from "./startup_cache.ts";

/** The loaded tools and the rules every call passes through. */
export interface LoadedTools {
  registry: ToolRegistry;
  gates: readonly ToolGate[];
  observers?: readonly ToolObserver[];
}

/**
 * Offers catalog tools until the real ones are loaded, then those (tools created meanwhile, e.g.
 * by create_tool, are offered on the next turn as on a full start); executes through the loaded
 * registry.
 */
export class DeferredToolRegistry extends ToolRegistry {
  #loading?: Promise<LoadedTools>;
  #loaded?: LoadedTools;

  constructor(catalog: CatalogTool[], private readonly load: () => Promise<LoadedTools>) {
    super();
    for (const entry of catalog) this.register(catalogTool(entry));
  }

  /** The loaded tool, else the catalog entry. */
  override get(name: string): Tool | undefined {
    return this.#loaded ? this.#loaded.registry.get(name) : super.get(name);
  }

  /** The loaded tools, else the catalog. */
  override list(): Tool[] {
    return this.#loaded ? this.#loaded.registry.list() : super.list();
  }

  /**
   * Loads the real tools (once; a failed load is tried again on the next call, so a passing
   * problem does not disable a chat's tools) and runs the call with their gates and observers.
   */
  override async execute(call: ToolCall, options: ExecuteOptions): Promise<ToolExecution> {
    let loaded: LoadedTools;
    try {
      loaded = await (this.#loading ??= this.load().then((tools) => this.#loaded = tools));
    } catch (error) {
      this.#loading = undefined;
      return {
        callId: call.id,
        name: call.name,
        argumentsText: call.arguments,
        result: failed(`Cannot load the tools: ${(error as Error).message}`),
        durationMs: 0,
      };
    }
    return loaded.registry.execute(call, {
      ...options,
      gates: loaded.gates,
      observers: loaded.observers,
    });
  }
}

function catalogTool(entry: CatalogTool): Tool {
  const notLoaded = () => {
    throw new Error(`${entry.name} runs through DeferredToolRegistry.execute`);
  };
  return { ...entry, parse: notLoaded, run: notLoaded };
}

/** The catalog entry of a registered tool. */
export function catalogEntry(tool: Tool): CatalogTool {
  const entry: CatalogTool = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    source: tool.source,
  };
  if (tool.alwaysOn) entry.alwaysOn = true;
  if (tool.keywords?.length) entry.keywords = tool.keywords;
  return entry;
}
