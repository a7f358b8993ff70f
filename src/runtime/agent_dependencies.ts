/** Assembles the agent loop's dependencies from config and adapters (shared by both start paths). */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_loop.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { AuditSink, Clock, ConversationStore, FactStore } from "../core/ports.ts";
import type { PromptVariableSource } from "../core/prompt_variables.ts";
import { buildSystemPrompt, stampUserMessage } from "../core/system_prompt.ts";
import type { ToolRanker } from "../core/tool_relevance.ts";
import type { Hooks } from "../core/hooks.ts";
import type { SkillSummary } from "../core/skills_prompt.ts";
import type { ToolGate, ToolObserver, ToolRegistry } from "../core/tool_registry.ts";

/** The adapters the loop runs on. */
export interface AgentParts {
  config: RadarConfig;
  model: ChatModel;
  registry: ToolRegistry;
  conversations: ConversationStore;
  facts: Pick<FactStore, "listFacts">;
  clock: Clock;
  audit?: AuditSink;
  gates?: readonly ToolGate[];
  observers?: readonly ToolObserver[];
  promptVariables?: PromptVariableSource;
  /** Embedding ranking of tools when not all fit the budget (absent: keywords only). */
  toolRanker?: ToolRanker;
  hooks?: Hooks;
  /** Agent Skills for the system prompt's <available_skills> block (asked once per run). */
  skills?: () => readonly SkillSummary[];
  /** Where a prompt-budget warning goes (skills left out of the prompt). */
  warn?: (line: string) => void;
}

/** Loop dependencies; `historyMessages` overrides the window (heartbeats keep a shorter one). */
export function agentDependencies(
  parts: AgentParts,
  overrides?: { historyMessages?: number },
): AgentDependencies {
  const { config, facts, clock } = parts;
  return {
    model: parts.model,
    registry: parts.registry,
    store: parts.conversations,
    clock,
    audit: parts.audit,
    gates: parts.gates,
    observers: parts.observers,
    promptVariables: parts.promptVariables,
    toolRanker: parts.toolRanker,
    hooks: parts.hooks,
    elapsed: () => performance.now(),
    settings: {
      maxToolIterations: config.llm.max_tool_iterations,
      temperature: config.llm.temperature,
      toolBudgetTokens: config.llm.tool_budget_tokens,
      historyMessages: overrides?.historyMessages ?? config.memory.max_conversation_context * 2,
      maxResultChars: config.tools.max_result_chars,
    },
    systemPrompt: (variables) =>
      buildSystemPrompt({
        variables,
        name: config.radar.name,
        personality: config.radar.personality,
        personalityNotes: facts.listFacts({
          limit: config.memory.max_personality_notes,
          category: "personality_note",
        }).map((fact) => fact.content),
        timeZone: config.radar.timezone || undefined,
        skills: parts.skills?.(),
        onSkillsOmitted: (count) =>
          parts.warn?.(
            `${count} skill(s) left out of the system prompt (500-token budget); ` +
              `use_skill without a name still lists them`,
          ),
      }),
    stampUserMessage: (content, sentAt) =>
      stampUserMessage(content, sentAt, config.radar.timezone || undefined),
  };
}
