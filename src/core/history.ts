/** Bounding stored history so a replayed window is always well-formed for the model. */
import type { ChatMessage } from "./messages.ts";

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
