/** The agent loop: model call → tool calls → results → repeat until an answer or the cap. */
import type { ChatModel, ChatResponse } from "./chat_model.ts";
import { LlmError } from "./errors.ts";
import { addUsage, type ChatMessage, type Usage } from "./messages.ts";
import type { AuditSink, Clock, ConversationStore } from "./ports.ts";
import { estimateJsonTokens } from "./tokens.ts";
import type { ConversationKind, Tool, ToolContext } from "./tool.ts";
import {
  fitsBudget,
  type ToolExecution,
  type ToolGate,
  type ToolObserver,
  type ToolRegistry,
  toolSpec,
  toolTokenCost,
} from "./tool_registry.ts";
import type { ToolRanker } from "./tool_relevance.ts";
import { trimHistory } from "./history.ts";
import { collectPromptVariables, type PromptVariableSource } from "./prompt_variables.ts";
import { randomMarkerId, wrapUntrusted } from "./untrusted_text.ts";
import type { Hooks } from "./hooks.ts";
import { maskSecretValues, redactText } from "./redact.ts";

/** Loop settings from config. */
export interface AgentSettings {
  maxToolIterations: number;
  temperature: number;
  toolBudgetTokens: number;
  historyMessages: number;
  maxResultChars: number;
}

/** Progress of a run, for spinners, verbose output and the dashboard. */
export type AgentEvent =
  | { type: "tools_offered"; tools: string[]; estimatedPromptTokens: number }
  | { type: "model_started"; iteration: number }
  | { type: "model_finished"; iteration: number; response: ChatResponse }
  | { type: "tool_started"; name: string; argumentsText: string }
  | { type: "tool_finished"; execution: ToolExecution };

/** Everything the loop needs, as ports. */
export interface AgentDependencies {
  model: ChatModel;
  registry: ToolRegistry;
  store: ConversationStore;
  clock: Clock;
  settings: AgentSettings;
  /**
   * Builds the system prompt for this run (personality, notes, plugin variables); `run` names the
   * conversation (its start time fills the personality's time templates).
   */
  systemPrompt: (variables?: Record<string, string>, run?: { conversationId?: number }) => string;
  /** Dynamic prompt values (plugins' prompt variables), fetched once per run. */
  promptVariables?: PromptVariableSource;
  audit?: AuditSink;
  gates?: readonly ToolGate[];
  /** Post-call observers (plugins' post_tool_call hooks). */
  observers?: readonly ToolObserver[];
  /** Hooks at filter_tools, pre_agent_run and post_agent_run (tool-call points come as gates). */
  hooks?: Hooks;
  /** A monotonic milliseconds counter (performance.now in production). */
  elapsed: () => number;
  /**
   * The untrusted-text marker id (tests pin it). By default one random id per process: the content
   * cannot know it, and replayed tool results stay byte-identical from request to request, so the
   * server's prompt cache keeps the conversation's prefix.
   */
  markerId?: () => string;
  /**
   * Renders a user message as the model sees it (its send time first, see `stampUserMessage`):
   * applied to stored history too, so earlier turns replay byte-identically (prompt cache).
   * Heartbeat messages carry their time already and are left as they are.
   */
  stampUserMessage?: (content: string, sentAt: Date) => string;
  /** Embedding similarity of tools to a message, used when not every tool fits the budget. */
  toolRanker?: ToolRanker;
  /**
   * Every secret known now (the config's and those read since start: password_cmd, keychain,
   * password_env), asked on each tool result. Tool results are masked with them (and the
   * generic token rules) before the model, the store or the audit trail sees them; stored tool
   * results are masked again when replayed, so a secret learned later never goes back out.
   */
  secrets?: () => readonly string[];
}

/** One run of the loop. */
export interface AgentRequest {
  conversationId: number;
  kind: ConversationKind;
  userMessage: string;
  interactive: boolean;
  confirm?: (question: string) => Promise<boolean>;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Override of the tools to offer (names); default: the registry's selection. */
  toolNames?: string[];
  /** The run's outbox (heartbeats and tasks), handed to tools in their context. */
  sideEffects?: ToolContext["sideEffects"];
}

/** Why a run stopped. */
export type StopReason = "answer" | "max_iterations" | "cancelled";

/** What a run produced. */
export interface AgentResult {
  answer: string;
  stopReason: StopReason;
  iterations: number;
  toolExecutions: ToolExecution[];
  usage?: Usage;
  modelDurationMs: number;
  offeredTools: string[];
  estimatedPromptTokens: number;
  warnings: string[];
  /** Set when a pre_agent_run hook blocked the message: nothing was sent or stored. */
  blocked?: true;
}

/**
 * Runs the agent loop, storing every message as it happens; what tools asked to clean up at the
 * run's end (`ToolContext.atRunEnd`) runs however the run ends.
 */
export async function runAgent(
  deps: AgentDependencies,
  request: AgentRequest,
): Promise<AgentResult> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await runLoop(deps, request, (cleanup) => cleanups.push(cleanup));
  } finally {
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
  }
}

async function runLoop(
  deps: AgentDependencies,
  request: AgentRequest,
  atRunEnd: (cleanup: () => Promise<void>) => void,
): Promise<AgentResult> {
  const { store, clock, settings } = deps;
  const signal = request.signal ?? new AbortController().signal;
  const now = clock.now();
  const stamp = request.kind === "heartbeat" ? undefined : deps.stampUserMessage;
  const history = trimHistory(
    store.recentMessages(request.conversationId, settings.historyMessages).map((message) =>
      stamp && message.role === "user"
        ? { ...message, content: stamp(message.content, new Date(message.createdAt)) }
        : message
    ),
  );
  const hooks = deps.hooks;
  if (hooks?.has("pre_agent_run")) {
    const verdict = await hooks.block("pre_agent_run", {
      userMessage: request.userMessage,
      conversationId: request.conversationId,
      kind: request.kind,
    });
    // A blocked message is neither sent nor stored (it may hold what the rule keeps out), nor
    // kept as the title a new ask or chat conversation was given from it.
    if (verdict) {
      if (!history.length && (request.kind === "ask" || request.kind === "chat")) {
        store.retitle?.(request.conversationId, blockedTitle);
      }
      return blockedRun(verdict.message);
    }
  }
  const chosen = chooseTools(deps, request, recentToolNames(history), signal);
  // Awaited only when embeddings are asked: no extra turn of the event loop otherwise.
  let offered = chosen instanceof Promise ? await chosen : chosen;
  if (hooks?.has("filter_tools")) {
    const kept = new Set(await hooks.filterTools(offered.map((tool) => tool.name), request.kind));
    offered = offered.filter((tool) => kept.has(tool.name));
  }
  const offeredNames = new Set(offered.map((tool) => tool.name));
  const specs = offered.map(toolSpec);
  // Plugins' prompt variables are masked like tool results; the rest of the system prompt (the
  // user's personality, context documents, notes) only has known secret values replaced, so it
  // stays byte-identical from request to request (prompt cache).
  const secrets = deps.secrets?.() ?? [];
  const variables = Object.fromEntries(
    Object.entries(
      await collectPromptVariables(deps.promptVariables, {
        signal,
        conversationId: request.conversationId,
      }),
    ).map((
      [name, value],
    ) => [name, typeof value === "string" ? redactText(value, secrets) : value]),
  );
  const markerId = deps.markerId?.() ?? (processMarkerId ??= randomMarkerId());
  // Tool results run later in this request may reveal secrets read meanwhile: asked again each time.
  const redact = (text: string) => redactText(text, deps.secrets?.() ?? []);
  const replayed = (text: string) => redactText(text, secrets);
  const knownInArguments = secretsAsWritten(secrets);
  // Replayed turns stored before a secret was known are masked again (idempotent, so the replayed
  // prefix stays byte-identical): tool results and heartbeat messages (event text) fully, the
  // model's answers and its tool calls' arguments (which may have quoted them) by known secret
  // values only. A person's own chat messages are replayed as typed.
  const asData = (message: ChatMessage): ChatMessage =>
    message.role === "tool"
      ? { ...message, content: toolResultAsData(replayed(message.content), message, markerId) }
      : message.role === "assistant"
      ? maskedAssistantTurn(message, secrets, knownInArguments)
      : request.kind === "heartbeat"
      ? { ...message, content: replayed(message.content) }
      : message;
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: maskSecretValues(
        deps.systemPrompt(variables, { conversationId: request.conversationId }),
        secrets,
      ),
    },
    ...history.map(asData),
    { role: "user", content: stamp ? stamp(request.userMessage, now) : request.userMessage },
  ];
  store.appendMessage(request.conversationId, {
    role: "user",
    content: request.userMessage,
    createdAt: now,
  });
  let toolTokens = offered.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
  const estimatedPromptTokens = estimateJsonTokens(messages) + toolTokens;
  request.onEvent?.({ type: "tools_offered", tools: [...offeredNames], estimatedPromptTokens });

  const context: ToolContext = {
    conversationId: request.conversationId,
    kind: request.kind,
    interactive: request.interactive,
    confirm: request.confirm,
    signal,
    sideEffects: request.sideEffects,
    atRunEnd,
  };
  const result: AgentResult = {
    answer: "",
    stopReason: "answer",
    iterations: 0,
    toolExecutions: [],
    modelDurationMs: 0,
    offeredTools: [...offeredNames],
    estimatedPromptTokens,
    warnings: [],
  };

  while (true) {
    if (signal.aborted) return cancelled(result);
    if (result.iterations >= settings.maxToolIterations) {
      result.stopReason = "max_iterations";
      result.answer =
        `Stopped after ${settings.maxToolIterations} tool rounds without a final answer ` +
        `(llm.max_tool_iterations). The last tool results are in the conversation history.`;
      store.appendMessage(request.conversationId, {
        role: "assistant",
        content: result.answer,
        createdAt: clock.now(),
      });
      return result;
    }
    result.iterations++;
    request.onEvent?.({ type: "model_started", iteration: result.iterations });
    const started = deps.elapsed();
    let response: ChatResponse;
    try {
      response = await deps.model.chat({
        messages,
        tools: specs,
        temperature: settings.temperature,
        estimatedPromptTokens: estimateJsonTokens(messages) + toolTokens,
      }, signal);
    } catch (error) {
      if (signal.aborted || (error instanceof LlmError && error.kind === "cancelled")) {
        return cancelled(result);
      }
      throw error;
    }
    result.modelDurationMs += response.durationMs ?? Math.max(0, deps.elapsed() - started);
    result.usage = addUsage(result.usage, response.usage);
    result.warnings.push(...(response.warnings ?? []));
    if (!response.toolCalls.length && hooks?.has("post_agent_run")) {
      response = {
        ...response,
        content: await hooks.transformAnswer({
          userMessage: request.userMessage,
          response: response.content,
          conversationId: request.conversationId,
          kind: request.kind,
        }),
      };
    }
    request.onEvent?.({ type: "model_finished", iteration: result.iterations, response });

    const assistant: ChatMessage = { role: "assistant", content: response.content };
    if (response.toolCalls.length) assistant.toolCalls = response.toolCalls;
    messages.push(assistant);
    store.appendMessage(request.conversationId, {
      ...assistant,
      createdAt: clock.now(),
      usage: response.usage,
      durationMs: response.durationMs,
    });
    if (!response.toolCalls.length) {
      result.answer = response.content;
      return result;
    }
    for (const call of response.toolCalls) {
      if (signal.aborted) return cancelled(result);
      request.onEvent?.({ type: "tool_started", name: call.name, argumentsText: call.arguments });
      const execution = await deps.registry.execute(call, {
        offered: offeredNames,
        context,
        gates: deps.gates,
        observers: deps.observers,
        maxResultChars: settings.maxResultChars,
        redact,
        elapsed: deps.elapsed,
      });
      result.toolExecutions.push(execution);
      let laterOffered = execution.result.offerTools ?? [];
      if (laterOffered.length && hooks?.has("filter_tools")) {
        // Tools offered later (find_tools) pass the same filters: a hidden tool stays hidden.
        laterOffered = [...await hooks.filterTools(laterOffered, request.kind)];
      }
      for (const name of laterOffered) {
        const found = deps.registry.get(name);
        if (!found || offeredNames.has(name)) continue;
        offeredNames.add(name);
        specs.push(toolSpec(found));
        toolTokens += toolTokenCost(found);
      }
      request.onEvent?.({ type: "tool_finished", execution });
      deps.audit?.recordToolCall({
        at: clock.now(),
        conversationId: request.conversationId,
        tool: call.name,
        arguments: call.arguments,
        durationMs: execution.durationMs,
        outcome: execution.result.outcome,
        result: execution.result.text,
      });
      const toolMessage: ChatMessage = {
        role: "tool",
        content: execution.result.text,
        toolCallId: call.id,
        toolName: call.name,
      };
      messages.push(asData(toolMessage));
      store.appendMessage(request.conversationId, { ...toolMessage, createdAt: clock.now() });
    }
  }
}

/** The secrets as they appear in stored JSON too (a secret with `"` or `\` is escaped there). */
function secretsAsWritten(secrets: readonly string[]): string[] {
  const inJson = secrets.map((secret) => JSON.stringify(secret).slice(1, -1))
    .filter((escaped) => !secrets.includes(escaped));
  return [...secrets, ...inJson];
}

/**
 * A replayed assistant turn with known secret values replaced in its text and in its tool calls'
 * arguments (`known`: the secrets as written in stored JSON too). Nothing else changes.
 */
function maskedAssistantTurn(
  message: ChatMessage,
  secrets: readonly string[],
  known: readonly string[],
): ChatMessage {
  const masked: ChatMessage = { ...message, content: maskSecretValues(message.content, secrets) };
  if (message.toolCalls?.length) {
    masked.toolCalls = message.toolCalls.map((call) => ({
      ...call,
      arguments: maskSecretValues(call.arguments, known),
    }));
  }
  return masked;
}

/**
 * A tool result as the model sees it: wrapped as untrusted data (a web page, a file, a plugin's
 * output can say anything). The conversation store keeps the plain text.
 */
let processMarkerId: string | undefined;

function toolResultAsData(content: string, message: ChatMessage, markerId: string): string {
  return wrapUntrusted(content, {
    source: `tool ${message.toolName ?? "result"}`,
    id: markerId,
  });
}

function chooseTools(
  deps: AgentDependencies,
  request: AgentRequest,
  recentTools: string[],
  signal: AbortSignal,
): Tool[] | Promise<Tool[]> {
  if (request.toolNames) {
    return request.toolNames.map((name) => deps.registry.get(name)).filter((tool): tool is Tool =>
      tool !== undefined
    );
  }
  const budget = deps.settings.toolBudgetTokens;
  const all = deps.registry.candidates(request.userMessage, { recentTools });
  const select = (semanticScores?: ReadonlyMap<string, number>) =>
    deps.registry.select(request.userMessage, budget, { recentTools, semanticScores });
  if (!deps.toolRanker || fitsBudget(all, budget)) return select();
  return deps.toolRanker.scores(request.userMessage, all, signal).then(select);
}

/** Names of the tools called in `history`, newest first. */
function recentToolNames(history: readonly ChatMessage[]): string[] {
  const names: string[] = [];
  for (const message of [...history].reverse()) {
    for (const call of message.toolCalls ?? []) {
      if (!names.includes(call.name)) names.push(call.name);
    }
  }
  return names;
}

/** The title of a new conversation whose first message a hook blocked. */
export const blockedTitle = "(blocked message)";

function blockedRun(message: string): AgentResult {
  return {
    blocked: true,
    answer: message,
    stopReason: "answer",
    iterations: 0,
    toolExecutions: [],
    modelDurationMs: 0,
    offeredTools: [],
    estimatedPromptTokens: 0,
    warnings: [],
  };
}

function cancelled(result: AgentResult): AgentResult {
  result.stopReason = "cancelled";
  result.answer = result.answer || "Cancelled.";
  return result;
}

/** Estimated tokens of a first request: system prompt, tool schemas and a user message. */
export function estimateFirstRequestTokens(
  systemPrompt: string,
  tools: Tool[],
  message: string,
): number {
  return estimateJsonTokens([
    { role: "system", content: systemPrompt },
    { role: "user", content: message },
  ]) + tools.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
}
