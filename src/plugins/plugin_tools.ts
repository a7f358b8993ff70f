/**
 * Plugin tools in the registry: a `Tool` built from a manifest's JSON Schema whose run function
 * calls the plugin's warm host process. Hosts are kept per plugin (and per approved file hash) and
 * stopped when the plugin goes away or Radar closes.
 */
import { z } from "zod";
import { failed, refused, timedOut, type Tool, type ToolResult } from "../core/tool.ts";
import { describeIssues } from "../core/zod_issues.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { textForModel } from "../core/untrusted_text.ts";
import type { JsonObjectSchema } from "../sandbox/manifest.ts";
import {
  type PluginCallResult,
  PluginProcess,
  type PluginProcessOptions,
} from "../sandbox/plugin_process.ts";
import { pluginCode } from "./plugin_files.ts";
import type { LoadedPlugin } from "./plugin_inventory.ts";

/** Limits every plugin host runs with. */
type HostLimits = Omit<PluginProcessOptions, "code" | "grant">;

/** Warm plugin host processes, one per plugin. */
export class PluginHostPool {
  #hosts = new Map<string, { hash: string; process: PluginProcess }>();
  constructor(private readonly limits: HostLimits) {}

  /** The host of a plugin, started on first call; replaced when the approved files changed. */
  host(plugin: LoadedPlugin): PluginProcess {
    const name = plugin.folder.name;
    const known = this.#hosts.get(name);
    if (known && known.hash === plugin.folder.hash) return known.process;
    if (known) void known.process.stop();
    const process = new PluginProcess({
      ...this.limits,
      code: pluginCode(plugin.folder),
      grant: plugin.grant,
    });
    this.#hosts.set(name, { hash: plugin.folder.hash, process });
    return process;
  }

  /** Stops the hosts of plugins not in `keep`. */
  async retain(keep: Set<string>): Promise<void> {
    for (const [name, entry] of this.#hosts) {
      if (keep.has(name)) continue;
      this.#hosts.delete(name);
      await entry.process.stop();
    }
  }

  /** Stops every host. */
  async stopAll(): Promise<void> {
    await this.retain(new Set());
  }
}

/** Builds an argument parser from a JSON Schema object (zod's converter, checked fallback). */
function jsonSchemaParser(schema: JsonObjectSchema): Tool["parse"] {
  let parser: z.ZodType | undefined;
  try {
    parser = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    parser = undefined;
  }
  return (args) => {
    if (!args || typeof args !== "object" || Array.isArray(args)) {
      return { ok: false, error: "expected a JSON object of named arguments" };
    }
    if (!parser) {
      const missing = schema.required.filter((key) => !(key in args));
      return missing.length
        ? { ok: false, error: `missing ${missing.join(", ")}` }
        : { ok: true, value: args };
    }
    const parsed = parser.safeParse(args);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, error: describeIssues(parsed.error, { root: "(arguments)" }) };
  };
}

/** Deno's words when a permission check fails inside the plugin. */
const permissionDenied = /\bRequires (read|write|net|env|run|ffi|sys|import) access\b|NotCapable/;

/**
 * A plugin call's result as a tool result: timeouts stay timeouts, a plugin stopped by its
 * permissions (it tried to reach outside its grant) is `refused`, other failures are errors.
 */
export function pluginOutcome(result: PluginCallResult): ToolResult {
  // Hostile text: chat-template tokens are defused here already (the agent loop also wraps every
  // tool result as untrusted data), so no copy of it — audit trail, dashboard — carries them.
  const text = textForModel(result.text);
  if (result.outcome === "timeout") return timedOut(text);
  if (result.outcome === "error") {
    return permissionDenied.test(text) ? refused(text) : failed(text);
  }
  return { outcome: "ok", text };
}

/** The registry tools of one loaded plugin. */
function pluginTools(
  plugin: LoadedPlugin,
  pool: PluginHostPool,
  publicResults: () => readonly string[],
): Tool[] {
  const manifest = plugin.folder.manifest;
  return manifest.tools.map((spec) => ({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    source: `plugin:${manifest.name}`,
    // What its sandbox lets it do: a network grant can send data out, a write grant change files.
    effect: plugin.grant.net.length
      ? "sends_out"
      : plugin.grant.write.length
      ? "local_write"
      : "none",
    // Its sandbox bounds where it sends: a grant names the plugin, not the hosts it reaches.
    destinations: () => plugin.grant.net.length ? [`plugin:${manifest.name}`] : [],
    results: () => publicResults().includes(manifest.name) ? "public" : "private",
    keywords: [manifest.name, ...manifest.description.toLowerCase().split(/\W+/).slice(0, 8)],
    parse: jsonSchemaParser(spec.parameters),
    async run(args) {
      const result = pluginOutcome(
        await pool.host(plugin).call(spec.name, args as Record<string, unknown>),
      );
      return result.outcome === "ok" ? result.text : result;
    },
  }));
}

/**
 * Replaces every plugin tool in the registry with the tools of `plugins`. A plugin tool never
 * replaces a built-in tool of the same name; its results are private unless the config lists the
 * plugin in `plugins.public_results`. Returns warnings for skipped tools.
 */
export async function registerPluginTools(
  registry: ToolRegistry,
  plugins: LoadedPlugin[],
  pool: PluginHostPool,
  labels: { publicResults: () => readonly string[] } = { publicResults: () => [] },
): Promise<string[]> {
  const warnings: string[] = [];
  for (const tool of registry.list()) {
    if (tool.source.startsWith("plugin:")) registry.unregister(tool.name);
  }
  for (const plugin of plugins) {
    for (const tool of pluginTools(plugin, pool, labels.publicResults)) {
      const existing = registry.get(tool.name);
      if (existing) {
        warnings.push(
          `Plugin ${plugin.folder.name}: tool ${tool.name} skipped (already provided by ${existing.source})`,
        );
        continue;
      }
      registry.register(tool);
    }
  }
  await pool.retain(new Set(plugins.map((plugin) => plugin.folder.name)));
  return warnings;
}
