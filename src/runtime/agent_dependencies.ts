/**
 * The agent loop's dependencies for one run, built in one place (`agentBuilder`): what every run
 * shares, plus what the run's personality changes — model, tools, temperature and the system
 * prompt (`systemPrompts`: body with templates, notes, skills, plugin variables).
 */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies, RequestRead } from "../core/agent_types.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { Clock, FactStore } from "../core/ports.ts";
import { buildSystemPrompt, type SkillSummary, stampUserMessage } from "../core/system_prompt.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { estimateTokens } from "../core/context_fit.ts";
import type { ResolvedPersonality } from "../personalities/personality_sources.ts";
import { hasTemplates, renderTemplate } from "../personalities/templates.ts";
import { promptWarning } from "../personalities/personality_catalog.ts";

/** What of a personality the request needs: its body, settings, documents and folders. */
export type RunPersonality = Pick<
  ResolvedPersonality,
  "name" | "body" | "frontMatter" | "contextDocuments" | "resources"
>;

/** What `agent()` may change for one run. */
export interface AgentOptions {
  /** Heartbeat windows keep a shorter history. */
  historyMessages?: number;
  /** The personality of this run (`-P`, a task's, the heartbeat's); default: the active one. */
  personality?: string;
  /** Where `personality` came from, for the error when it names nothing (default "option"). */
  personalityFrom?: "option" | "task" | "heartbeat";
}

/**
 * What every run of one Radar shares, already in the loop's shape: all but what the personality
 * decides (model, tools, settings, prompt, time stamp) and the marker id tests pin; the run guard
 * always.
 */
export type SharedAgentParts =
  & Omit<
    AgentDependencies,
    "model" | "registry" | "settings" | "systemPrompt" | "stampUserMessage" | "markerId"
  >
  & Required<Pick<AgentDependencies, "guard">>;

/** What a run's personality decides: which one it is, its model and its tools. */
export interface PersonalityChoices {
  /** The run's personality (`-P`, a task's, the heartbeat's, else the active one). */
  resolve(overrides?: AgentOptions): ResolvedPersonality;
  model(personality: ResolvedPersonality): ChatModel;
  registry(personality: ResolvedPersonality): ToolRegistry;
}

/**
 * The one builder of the loop's dependencies: each run is what every run shares plus what its
 * personality changes (model, tools, temperature, prompt) and its history window.
 */
export function agentBuilder(
  config: RadarConfig,
  shared: SharedAgentParts,
  prompts: SystemPrompts,
  personalities: PersonalityChoices,
): (overrides?: AgentOptions) => AgentDependencies {
  const timeZone = config.radar.timezone || undefined;
  return (overrides) => {
    const personality = personalities.resolve(overrides);
    return {
      ...shared,
      model: personalities.model(personality),
      registry: personalities.registry(personality),
      settings: {
        maxToolIterations: config.llm.max_tool_iterations,
        temperature: personality.frontMatter.temperature ?? config.llm.temperature,
        toolBudgetTokens: config.llm.tool_budget_tokens,
        historyMessages: overrides?.historyMessages ?? config.memory.max_conversation_context * 2,
        maxResultChars: config.tools.max_result_chars,
      },
      systemPrompt: prompts(personality),
      stampUserMessage: (content, sentAt) => stampUserMessage(content, sentAt, timeZone),
      promptReads: () => [...shared.promptReads?.() ?? [], ...personalityReads(personality)],
    };
  };
}

/**
 * A personality a plugin bundles is its author's text in every request of the run: outside text
 * the run reads (public), like an MCP tool's description or a skill the user installed.
 */
function personalityReads(personality: ResolvedPersonality): RequestRead[] {
  return personality.source.startsWith("plugin:")
    ? [{ source: `personality from ${personality.source}`, label: "public" }]
    : [];
}

/** The system prompt of a personality's runs. */
export type SystemPrompts = (personality: RunPersonality) => AgentDependencies["systemPrompt"];

/** What the system prompt is built from besides the personality. */
export interface SystemPromptParts {
  config: RadarConfig;
  facts: Pick<FactStore, "listFacts">;
  clock: Clock;
  /** Agent Skills for the system prompt's <available_skills> block (asked once per run). */
  skills?: () => readonly SkillSummary[];
  /** Where a prompt-budget warning goes (skills left out, a personality past the budget). */
  warn?: (line: string) => void;
  /** When a conversation started: the time `{{ current_time }}` and friends render. */
  conversationStartedAt?: (conversationId: number) => Date | undefined;
}

/** Builds each personality's system prompt: its body, notes, skills and variables. */
export function systemPrompts(parts: SystemPromptParts): SystemPrompts {
  const { config, facts } = parts;
  const timeZone = config.radar.timezone || undefined;
  return (personality) => (variables = {}, run) => {
    // Templates render at the conversation's start: the prompt stays the same all along it.
    const startedAt =
      (run?.conversationId === undefined || !hasTemplates(personality.body)
        ? undefined
        : parts.conversationStartedAt?.(run.conversationId)) ?? parts.clock.now();
    const rendered = renderTemplate(personality.body, { startedAt, timeZone, variables });
    const rest = Object.fromEntries(
      Object.entries(variables).filter(([key]) => !rendered.usedVariables.includes(key)),
    );
    const prompt = buildSystemPrompt({
      variables: rest,
      name: config.radar.name,
      personality: rendered.text,
      personalityContext: personality.contextDocuments,
      personalityResources: personality.resources,
      personalityNotes: facts.listFacts({
        limit: config.memory.max_personality_notes,
        category: "personality_note",
      }).map((fact) => fact.content),
      timeZone,
      skills: parts.skills?.(),
      onSkillsOmitted: (count) =>
        parts.warn?.(
          `${count} skill(s) left out of the system prompt (500-token budget); ` +
            `use_skill without a name still lists them`,
        ),
    });
    const warning = promptWarning(personality.name, estimateTokens(prompt));
    if (warning) parts.warn?.(warning);
    return prompt;
  };
}
