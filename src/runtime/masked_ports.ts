/**
 * The exits where Radar's text leaves it, masked with the secrets known at that moment (a
 * password read after start included): the chat and embedding models (the server may be remote),
 * the event queue (every source's events, stored and shown) and the plugins' prompt variables.
 * The composition root wraps each port once; nothing behind it masks again.
 */
import type { ChatMessage, ChatModel } from "../core/chat_model.ts";
import type { EmbeddingModel } from "../core/embedding_model.ts";
import type { PendingEvent } from "../core/heartbeat.ts";
import type { PromptVariableSource } from "../core/system_prompt.ts";
import type { Secrets } from "../core/secrets.ts";
import type { EventQueue, NewEvent } from "../core/work_ports.ts";

/**
 * Wraps a chat model: every message of a request has the known secret values replaced (the
 * system prompt, the model's own earlier answers and tool-call arguments, tool results and
 * Radar's own user turns), and nothing else, so a replayed prefix stays byte-identical from
 * request to request (prompt cache). User turns a person typed (`typedByPerson`) go as typed.
 */
export function maskedChatModel(model: ChatModel, secrets: Secrets): ChatModel {
  return {
    get provider() {
      return model.provider;
    },
    get model() {
      return model.model;
    },
    chat: (request, signal) => {
      const masked = (message: ChatMessage): ChatMessage => {
        if (message.role === "user" && request.typedByPerson) return message;
        const out = { ...message, content: secrets.maskValues(message.content) };
        if (message.toolCalls?.length) {
          out.toolCalls = message.toolCalls.map((call) => ({
            ...call,
            arguments: secrets.maskValuesInJson(call.arguments),
          }));
        }
        return out;
      };
      return model.chat({ ...request, messages: request.messages.map(masked) }, signal);
    },
    status: (signal) => model.status(signal),
    promptLimit: model.promptLimit
      ? (needed: number, signal?: AbortSignal) => model.promptLimit!(needed, signal)
      : undefined,
  };
}

/** Wraps an embedding model: each text is masked (values and the generic rules) before it goes. */
export function maskedEmbeddingModel(model: EmbeddingModel, secrets: Secrets): EmbeddingModel {
  return {
    model: model.model,
    embed: (texts, signal) => model.embed(texts.map((text) => secrets.mask(text)), signal),
  };
}

/**
 * Wraps the event queue: an event is masked when it is queued (before the store cuts it, so no
 * half of a secret is kept), and again when it is read, with the secrets known then (a password
 * read after the event was queued is masked in the heartbeat, the triage and the dashboard too).
 */
export function maskedEventQueue(queue: EventQueue, secrets: Secrets): EventQueue {
  const masked = <T extends NewEvent | PendingEvent>(event: T): T => ({
    ...event,
    source: secrets.mask(event.source),
    kind: secrets.mask(event.kind),
    summary: secrets.mask(event.summary),
    ...(event.detail === undefined ? {} : { detail: secrets.mask(event.detail) }),
  });
  return {
    enqueue: (event, at) => queue.enqueue(masked(event), at),
    pending: (limit) => queue.pending(limit).map(masked),
    pendingCount: () => queue.pendingCount(),
    markConsumed: (ids, runId, at) => queue.markConsumed(ids, runId, at),
    pruneConsumed: (before) => queue.pruneConsumed(before),
    markBlocked: (ids, runId, reason, at, limit) =>
      queue.markBlocked(ids, runId, reason, at, limit),
    setAside: () => queue.setAside(),
    setAsideEvents: (limit) => queue.setAsideEvents(limit).map(masked),
    requeueSetAside: () => queue.requeueSetAside(),
  };
}

/** Wraps the plugins' prompt variables: each value is masked like a tool result. */
export function maskedPromptVariables(
  source: PromptVariableSource,
  secrets: Secrets,
): PromptVariableSource {
  return {
    variables: async (context) =>
      Object.fromEntries(
        Object.entries(await source.variables(context)).map((
          [name, value],
        ) => [name, typeof value === "string" ? secrets.mask(value) : value]),
      ),
  };
}
