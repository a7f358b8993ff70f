/** Assembles the agent loop's dependencies from config and adapters (shared by both start paths). */
import type { RadarConfig } from "../config/schema.ts";
import type { AgentDependencies } from "../core/agent_loop.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type {
  AuditSink,
  Clock,
  ConversationRuns,
  ConversationStore,
  FactStore,
} from "../core/ports.ts";
import type { PromptVariableSource } from "../core/prompt_variables.ts";
import { buildSystemPrompt, stampUserMessage } from "../core/system_prompt.ts";
import type { ToolRanker } from "../core/tool_relevance.ts";
import type { Hooks } from "../core/hooks.ts";
import type { SkillSummary } from "../core/skills_prompt.ts";
import type { ToolGate, ToolObserver, ToolRegistry } from "../core/tool_registry.ts";
import { estimateTokens } from "../core/tokens.ts";
import type { ResolvedPersonality } from "../personalities/personality_sources.ts";
import { hasTemplates, renderTemplate } from "../personalities/templates.ts";
import { promptWarning } from "../personalities/personality_catalog.ts";
import { configSecrets } from "../config/secrets.ts";

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
  /** Where a prompt-budget warning goes (skills left out, a personality past the budget). */
  warn?: (line: string) => void;
  /** The run's personality (absent: `radar.personality` as plain text, for tests). */
  personality?: RunPersonality;
  /** When a conversation started: the time `{{ current_time }}` and friends render. */
  conversationStartedAt?: (conversationId: number) => Date | undefined;
  /** Runs in progress (a killed one is shown as interrupted on the next start). */
  runs?: ConversationRuns;
}

/** Loop dependencies; `historyMessages` overrides the window (heartbeats keep a shorter one). */
export function agentDependencies(
  parts: AgentParts,
  overrides?: { historyMessages?: number },
): AgentDependencies {
  const { config, facts, clock } = parts;
  const timeZone = config.radar.timezone || undefined;
  const personality: RunPersonality = parts.personality ?? {
    name: "inline",
    body: config.radar.personality,
    frontMatter: {},
    contextDocuments: [],
    resources: [],
  };
  return {
    model: parts.model,
    registry: parts.registry,
    store: parts.conversations,
    runs: parts.runs,
    clock,
    audit: parts.audit,
    gates: parts.gates,
    observers: parts.observers,
    promptVariables: parts.promptVariables,
    toolRanker: parts.toolRanker,
    hooks: parts.hooks,
    // Read on every tool result: a password read by password_cmd mid-run is masked from then on.
    secrets: () => configSecrets(config),
    elapsed: () => performance.now(),
    settings: {
      maxToolIterations: config.llm.max_tool_iterations,
      temperature: personality.frontMatter.temperature ?? config.llm.temperature,
      toolBudgetTokens: config.llm.tool_budget_tokens,
      historyMessages: overrides?.historyMessages ?? config.memory.max_conversation_context * 2,
      maxResultChars: config.tools.max_result_chars,
    },
    systemPrompt: (variables = {}, run) => {
      // Templates render at the conversation's start: the prompt stays the same all along it.
      const startedAt =
        (run?.conversationId === undefined || !hasTemplates(personality.body)
          ? undefined
          : parts.conversationStartedAt?.(run.conversationId)) ?? clock.now();
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
    },
    stampUserMessage: (content, sentAt) => stampUserMessage(content, sentAt, timeZone),
  };
}
