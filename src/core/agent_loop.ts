/**
 * The agent loop: prepare messages → offer tools → ask the model → run each tool call → repeat
 * until an answer, a cancel or `llm.max_tool_iterations`. Each step has its own file:
 * agent_messages.ts, tool_offer.ts, tool_call_step.ts. Every message is stored as it happens.
 */
import { addUsage, type ChatMessage, type ChatResponse } from "./chat_model.ts";
import { LlmError } from "./errors.ts";
import { estimateJsonTokens, fitRequest } from "./context_fit.ts";
import type { Tool, ToolContext } from "./tool.ts";
import { toolTokenCost } from "./tool_registry.ts";
import type { AgentDependencies, AgentRequest, AgentResult, RunGuard } from "./agent_types.ts";
import { blockedByHooks, markerIdOf, prepareMessages, readHistory } from "./agent_messages.ts";
import { outsideToolTexts, ToolOffer } from "./tool_offer.ts";
import { runToolCall, type ToolCallRun } from "./tool_call_step.ts";
import { fitLongInput } from "./document_reading.ts";

/**
 * Runs the agent loop, storing every message as it happens; the run is recorded while it lasts
 * (`deps.runs`), so one whose process never finished is found interrupted by the next start. What
 * tools asked to clean up at the run's end (`ToolContext.atRunEnd`: a browser the run started)
 * runs however the run ends.
 */
export async function runAgent(
  deps: AgentDependencies,
  request: AgentRequest,
): Promise<AgentResult> {
  const ended = deps.runs?.begin(request.conversationId);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await runTurn(deps, request, (cleanup) => cleanups.push(cleanup));
  } finally {
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    ended?.();
  }
}

async function runTurn(
  deps: AgentDependencies,
  request: AgentRequest,
  atRunEnd: ToolContext["atRunEnd"],
): Promise<AgentResult> {
  const signal = request.signal ?? new AbortController().signal;
  const history = readHistory(deps, request);
  const blocked = await blockedByHooks(deps, request, history);
  if (blocked !== undefined) return { ...emptyResult([], 0), blocked: true, answer: blocked };
  const offer = await ToolOffer.choose(deps, request, history, signal);
  const { messages, userTurn, promptValues } = await prepareMessages(
    deps,
    request,
    history,
    signal,
  );
  const estimatedPromptTokens = estimateJsonTokens(messages) + offer.tokens;
  request.onEvent?.({ type: "tools_offered", tools: [...offer.names], estimatedPromptTokens });
  const guard = deps.guard?.(request, history, deps.registry) ?? unguarded(request);
  guard.readRequest([
    ...outsideToolTexts(deps.registry, offer.names),
    ...(promptValues ? [{ source: "plugin prompt values", label: "private" as const }] : []),
    ...deps.promptReads?.() ?? [],
  ]);
  const run: ToolCallRun = {
    request,
    context: {
      ...toolContext(request, signal),
      confirm: guard.confirm,
      atRunEnd,
      mayAlsoSendTo: guard.mayAlsoSendTo,
    },
    guard,
    offer,
    messages,
    // The user's message: the last one, or where the history holds it (a resumed run).
    historyEnd: messages.findLastIndex((message) => message.role === "user"),
    markerId: markerIdOf(deps),
    result: emptyResult([...offer.names], estimatedPromptTokens),
  };
  const { result } = run;
  if (request.longInput && !await readLongInput(deps, run, userTurn, signal)) {
    return cancelled(result);
  }
  while (true) {
    if (signal.aborted) return cancelled(result);
    if (result.iterations >= deps.settings.maxToolIterations) return stopAtCap(deps, run);
    const response = await askModel(deps, run, signal);
    if (!response) return cancelled(result);
    if (!response.toolCalls.length) {
      result.answer = response.content;
      return result;
    }
    for (const call of response.toolCalls) {
      if (signal.aborted) return cancelled(result);
      await runToolCall(deps, run, call);
    }
  }
}

/** A loop built without a guard (tests): the person's own confirm, every call as it comes. */
function unguarded(request: AgentRequest): RunGuard {
  return {
    confirm: request.confirm,
    begin() {},
    gate: () => Promise.resolve(undefined),
    settle: (execution) => Promise.resolve(execution),
    read() {},
    readRequest() {},
    readSources: () => ({ untrusted: [], private: [] }),
  };
}

/**
 * One model round: the request with the tools offered now, the answer passed through the
 * post_agent_run hooks when it is final, and stored. Undefined when the run was cancelled.
 */
async function askModel(
  deps: AgentDependencies,
  run: ToolCallRun,
  signal: AbortSignal,
): Promise<ChatResponse | undefined> {
  const { request, result, messages, offer } = run;
  result.iterations++;
  request.onEvent?.({ type: "model_started", iteration: result.iterations });
  const started = deps.elapsed();
  let response: ChatResponse;
  try {
    await fitRequest(deps.model, run, offer.tokens, result.warnings, signal);
    response = await deps.model.chat({
      messages,
      tools: offer.specs,
      temperature: deps.settings.temperature,
      estimatedPromptTokens: estimateJsonTokens(messages) + offer.tokens,
      typedByPerson: request.kind !== "heartbeat",
    }, signal);
  } catch (error) {
    if (signal.aborted || (error instanceof LlmError && error.kind === "cancelled")) return;
    throw error;
  }
  result.modelDurationMs += response.durationMs ?? Math.max(0, deps.elapsed() - started);
  result.usage = addUsage(result.usage, response.usage);
  result.warnings.push(...(response.warnings ?? []));
  if (!response.toolCalls.length && deps.hooks?.has("post_agent_run")) {
    const written = response.content;
    response = {
      ...response,
      content: await deps.hooks.transformAnswer({
        userMessage: request.userMessage,
        response: written,
        conversationId: request.conversationId,
        kind: request.kind,
      }),
    };
    // A hook's words in the answer are outside text: the runs that replay it read them.
    if (response.content !== written) {
      run.guard.readRequest([{ source: "answer hooks", label: "private" }]);
    }
  }
  request.onEvent?.({ type: "model_finished", iteration: result.iterations, response });
  const assistant: ChatMessage = { role: "assistant", content: response.content };
  if (response.toolCalls.length) assistant.toolCalls = response.toolCalls;
  messages.push(assistant);
  // The model's words may hold anything the run read: they keep its labels for later runs.
  deps.store.appendMessage(request.conversationId, {
    ...assistant,
    readFrom: run.guard.readSources(),
    createdAt: deps.clock.now(),
    usage: response.usage,
    durationMs: response.durationMs,
  });
  return response;
}

/**
 * The long input of the request fitted to the model's context (read in parts when it does not
 * fit whole); false when the run was cancelled meanwhile.
 */
async function readLongInput(
  deps: AgentDependencies,
  run: ToolCallRun,
  userTurn: (content: string) => ChatMessage,
  signal: AbortSignal,
): Promise<boolean> {
  const { request, result } = run;
  try {
    const outcome = await fitLongInput(
      {
        model: deps.model,
        temperature: deps.settings.temperature,
        signal,
        markerId: run.markerId,
        userTurn,
        elapsed: deps.elapsed,
        onPart: (part, parts) => request.onEvent?.({ type: "reading", part, parts }),
      },
      run,
      run.offer.tokens,
      request.longInput!,
    );
    if (!outcome) return true;
    result.reading = outcome.report;
    result.usage = addUsage(result.usage, outcome.usage);
    result.modelDurationMs += outcome.durationMs;
    if (!outcome.report.whole) result.warnings.push(outcome.report.note);
    return true;
  } catch (error) {
    if (signal.aborted || (error instanceof LlmError && error.kind === "cancelled")) return false;
    throw error;
  }
}

function toolContext(request: AgentRequest, signal: AbortSignal): ToolContext {
  return {
    conversationId: request.conversationId,
    kind: request.kind,
    interactive: request.interactive,
    confirm: request.confirm,
    signal,
    sideEffects: request.sideEffects,
  };
}

function emptyResult(offeredTools: string[], estimatedPromptTokens: number): AgentResult {
  return {
    answer: "",
    stopReason: "answer",
    iterations: 0,
    toolExecutions: [],
    modelDurationMs: 0,
    offeredTools,
    estimatedPromptTokens,
    warnings: [],
  };
}

/** `llm.max_tool_iterations` reached: one stored line says so. */
function stopAtCap(deps: AgentDependencies, run: ToolCallRun): AgentResult {
  const { result } = run;
  result.stopReason = "max_iterations";
  result.answer =
    `Stopped after ${deps.settings.maxToolIterations} tool rounds without a final answer ` +
    `(llm.max_tool_iterations). The last tool results are in the conversation history.`;
  deps.store.appendMessage(run.request.conversationId, {
    role: "assistant",
    content: result.answer,
    // The run's last results may be the last words replayed: the run's labels go with them.
    readFrom: run.guard.readSources(),
    createdAt: deps.clock.now(),
  });
  return result;
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
