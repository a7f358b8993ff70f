/**
 * Step "prepare messages" of the agent loop: the bounded, well-formed history with every user
 * turn stamped with its send time (heartbeat messages carry their own), the pre_agent_run hooks
 * that may block the message, and the request's messages — system prompt, history with tool
 * results as untrusted data, the new user message (stored as typed). Secrets are not masked
 * here: the chat model's wrapper masks every request (masked_ports.ts).
 */
import type { AgentDependencies, AgentRequest } from "./agent_types.ts";
import type { ChatMessage } from "./chat_model.ts";
import { collectPromptVariables } from "./system_prompt.ts";
import { randomMarkerId, wrapUntrusted } from "./untrusted_text.ts";

/** The title of a new conversation whose first message a hook blocked. */
export const blockedTitle = "(blocked message)";

/** The conversation's recent messages as the model sees them again (user turns stamped). */
export function readHistory(deps: AgentDependencies, request: AgentRequest): ChatMessage[] {
  const stamp = stampFor(deps, request);
  return trimHistory(
    deps.store.recentMessages(request.conversationId, deps.settings.historyMessages).map((
      message,
    ) =>
      stamp && message.role === "user"
        ? { ...message, content: stamp(message.content, new Date(message.createdAt)) }
        : message
    ),
  );
}

/**
 * The pre_agent_run hooks' verdict: the blocking message, or undefined. A blocked message is
 * neither sent nor stored (it may hold what the rule keeps out), nor kept as the title a new ask
 * or chat conversation was given from it.
 */
export async function blockedByHooks(
  deps: AgentDependencies,
  request: AgentRequest,
  history: readonly ChatMessage[],
): Promise<string | undefined> {
  if (!deps.hooks?.has("pre_agent_run")) return undefined;
  const verdict = await deps.hooks.block("pre_agent_run", {
    userMessage: request.userMessage,
    conversationId: request.conversationId,
    kind: request.kind,
  });
  if (!verdict) return undefined;
  if (!history.length && (request.kind === "ask" || request.kind === "chat")) {
    deps.store.retitle?.(request.conversationId, blockedTitle);
  }
  return verdict.message;
}

/**
 * The messages of the run's first request; the user message is stored as typed (unless it is
 * stored already: then the history holds it, with what the interrupted run did after it).
 * `userTurn` renders other text as that message would be sent (stamped with the same time);
 * `promptValues` says whether plugins' prompt values are in it (outside text the run reads).
 */
export async function prepareMessages(
  deps: AgentDependencies,
  request: AgentRequest,
  history: readonly ChatMessage[],
  signal: AbortSignal,
): Promise<{
  messages: ChatMessage[];
  userTurn: (content: string) => ChatMessage;
  promptValues: boolean;
}> {
  const variables = await collectPromptVariables(deps.promptVariables, {
    signal,
    conversationId: request.conversationId,
  });
  const now = deps.clock.now();
  const stamp = stampFor(deps, request);
  const markerId = markerIdOf(deps);
  const userTurn = (content: string): ChatMessage => ({
    role: "user",
    content: stamp ? stamp(content, now) : content,
  });
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: deps.systemPrompt(variables, { conversationId: request.conversationId }),
    },
    ...history.map((message) => asModelMessage(message, markerId)),
  ];
  const promptValues = Object.keys(variables).length > 0;
  if (request.userMessageStored) return { messages, userTurn, promptValues };
  messages.push(userTurn(request.userMessage));
  deps.store.appendMessage(request.conversationId, {
    role: "user",
    content: request.userMessage,
    createdAt: now,
  });
  return { messages, userTurn, promptValues };
}

/**
 * A message as the model sees it: a tool result wrapped as untrusted data (a web page, a file, a
 * plugin's output can say anything); the conversation store keeps the plain text.
 */
export function asModelMessage(
  { readFrom: _kept, ...message }: ChatMessage,
  markerId: string,
): ChatMessage {
  if (message.role !== "tool") return message;
  return {
    ...message,
    content: wrapUntrusted(message.content, {
      source: `tool ${message.toolName ?? "result"}`,
      id: markerId,
    }),
  };
}

let processMarkerId: string | undefined;

/**
 * The untrusted-text marker id: the injected one, else one random id per process (the content
 * cannot know it, and replayed tool results stay byte-identical from request to request).
 */
export function markerIdOf(deps: Pick<AgentDependencies, "markerId">): string {
  return deps.markerId?.() ?? (processMarkerId ??= randomMarkerId());
}

function stampFor(deps: AgentDependencies, request: AgentRequest) {
  return request.kind === "heartbeat" ? undefined : deps.stampUserMessage;
}

/**
 * Makes a history window safe to replay: keeps only user, assistant and tool messages, drops
 * assistant tool requests whose results are not all in the window (cut off or never stored),
 * and drops tool results whose request is not in the window.
 */
export function trimHistory(window: readonly ChatMessage[]): ChatMessage[] {
  const kept = window.filter((message) => message.role !== "system").map((message) => ({
    role: message.role,
    content: message.content,
    ...(message.toolCalls ? { toolCalls: message.toolCalls } : {}),
    ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
    ...(message.toolName ? { toolName: message.toolName } : {}),
    ...(message.readFrom ? { readFrom: message.readFrom } : {}),
  }));
  const answered = new Set(kept.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  const complete = kept.filter((message) =>
    !(message.role === "assistant" && message.toolCalls?.some((call) => !answered.has(call.id)))
  );
  const requested = new Set(
    complete.flatMap((message) => message.toolCalls?.map((call) => call.id) ?? []),
  );
  return complete.filter((message) =>
    message.role !== "tool" || requested.has(message.toolCallId ?? "")
  );
}
