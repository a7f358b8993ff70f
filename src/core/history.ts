/** Bounding stored history so a replayed window is always well-formed for the model. */
import type { ChatMessage } from "./messages.ts";

/**
 * Drops a leading partial tool exchange from a history window: tool results whose call was
 * cut off, and a trailing assistant tool request whose results never arrived.
 */
export function trimHistory(window: readonly ChatMessage[]): ChatMessage[] {
  let start = 0;
  while (start < window.length && window[start].role === "tool") start++;
  const kept = window.slice(start).map((message) => ({
    role: message.role,
    content: message.content,
    ...(message.toolCalls ? { toolCalls: message.toolCalls } : {}),
    ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
    ...(message.toolName ? { toolName: message.toolName } : {}),
  }));
  const answered = new Set(kept.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  return kept.filter((message) =>
    !(message.role === "assistant" && message.toolCalls?.some((call) => !answered.has(call.id)))
  ).filter((message) => message.role !== "system");
}
