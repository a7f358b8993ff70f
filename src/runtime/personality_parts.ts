/**
 * Personalities in the composition root: the catalog over the data folder, the enabled plugins'
 * bundled files and the bundled default, and what a run's personality changes in the request —
 * the model (front matter `model`: a role of `llm.models`, or a model name on the main server),
 * the tools (include/exclude, `load_context`) and, in agent_dependencies.ts, the prompt and the
 * temperature.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { Logger } from "../core/ports.ts";
import { maskedChatModel } from "./masked_ports.ts";
import type { Secrets } from "../core/secrets.ts";
import { findToolsName, type ToolRegistry } from "../core/tool_registry.ts";
import { sleep } from "../adapters/clock.ts";
import { createChatModel, createRoleModel } from "../adapters/llm/create_chat_model.ts";
import type { ModelRoleName } from "../adapters/llm/model_roles.ts";
import { FilePersonalityCatalog } from "../personalities/personality_catalog.ts";
import type {
  PluginPersonalityFile,
  ResolvedPersonality,
} from "../personalities/personality_sources.ts";
import { personalityRegistry } from "../personalities/personality_tools.ts";
import { findToolsTool } from "../tools/find_tools.ts";
import type { RunPlugins } from "./plugins_for_run.ts";
import { personalityNamePattern } from "../personalities/personality_file.ts";
import type { PersonalityChoices } from "./agent_dependencies.ts";
import { onceEach } from "./runtime_logging.ts";

/** What the personality parts are built from. */
export interface PersonalityPartsOptions {
  config: RadarConfig;
  dataDir: string;
  env: Record<string, string | undefined>;
  logger: Logger;
  fetch: typeof fetch;
  /** The main model (used when a personality names none, or names an unconfigured role). */
  mainModel: ChatModel;
  /** True when the caller injected the model (tests, benches): front matter cannot swap it. */
  modelInjected: boolean;
  /** What the models a personality names mask their requests with. */
  secrets: Secrets;
  /** The plugin system as a run sees it (absent: plugins are off): their personality files. */
  plugins?: RunPlugins;
  /** The one tool registry: a personality's runs see a view of it. */
  registry: ToolRegistry;
  /** Estimated system prompt tokens of a personality (`personality show`, the budget warning). */
  promptTokens: (personality: ResolvedPersonality) => number;
}

/** The catalog and the per-run choices: which personality, its model and its tools. */
export interface PersonalityParts extends PersonalityChoices {
  catalog: FilePersonalityCatalog;
  /**
   * True for a personality name that resolves (a task's personality must). Names only: a task
   * (one day the model's too) never points at an arbitrary file by path.
   */
  known(name: string): boolean;
}

const roles: readonly string[] = ["main", "fast", "vision", "fallback"];

/** Builds the catalog and the model cache. */
export function personalityParts(options: PersonalityPartsOptions): PersonalityParts {
  const { config, logger } = options;
  const warnOnce = onceEach(logger);
  const catalog = new FilePersonalityCatalog({
    dataDir: options.dataDir,
    config: () => config,
    env: options.env,
    plugins: () => pluginPersonalities(options.plugins),
    promptTokens: options.promptTokens,
    warn: warnOnce,
  });
  const models = new Map<string, ChatModel>();
  const modelOptions = { fetch: options.fetch, logger, sleep };
  const build = (name: string): ChatModel => {
    if (name === "main") return options.mainModel;
    if (roles.includes(name)) {
      const role = createRoleModel(
        config.llm,
        name as Exclude<ModelRoleName, "main">,
        modelOptions,
      );
      if (role) return maskedChatModel(role, options.secrets);
      warnOnce(
        `a personality asks for model role "${name}", but llm.models.${name} is not set; ` +
          `using the main model`,
      );
      return options.mainModel;
    }
    const main = config.llm.models.main;
    return maskedChatModel(
      createChatModel({
        ...config.llm,
        model: name,
        models: { ...config.llm.models, main: { ...main, model: main.model.trim() ? name : "" } },
      }, modelOptions),
      options.secrets,
    );
  };
  return {
    catalog,
    resolve: (overrides) =>
      catalog.forRun(
        overrides?.personality
          ? { name: overrides.personality, origin: overrides.personalityFrom ?? "option" }
          : undefined,
      ),
    known(name) {
      if (!personalityNamePattern.test(name)) return false;
      try {
        return catalog.show(name) !== undefined;
      } catch {
        return false;
      }
    },
    model(personality) {
      const name = personality.frontMatter.model;
      if (!name || options.modelInjected) return options.mainModel;
      let model = models.get(name);
      if (!model) models.set(name, model = build(name));
      return model;
    },
    registry(personality) {
      const base = options.registry;
      const view = personalityRegistry(base, personality);
      if (view === base || !view.get(findToolsName)) return view;
      // find_tools searches what this personality may use, not the whole registry.
      return view.view(() => true, [findToolsTool(() => view.list())]);
    },
  };
}

/** The personality files of the enabled plugins with the `personality` capability. */
function pluginPersonalities(plugins: RunPlugins | undefined): PluginPersonalityFile[] {
  if (!plugins) return [];
  return plugins.enabled().flatMap(({ folder }) => {
    const manifest = folder.manifest;
    if (!manifest.capabilities.includes("personality")) return [];
    return manifest.personalities.flatMap((file) => {
      const text = folder.files[`personalities/${file}`];
      return text === undefined ? [] : [{ plugin: folder.name, file, text }];
    });
  });
}
