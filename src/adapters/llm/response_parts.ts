/** Shared pieces of turning a server's message into a `ChatResponse` (pure). */
import type { ChatResponse, ServerTiming, ToolCall, Usage } from "../../core/chat_model.ts";
import { recoverToolCallsFromText, stripThinking } from "./text_tool_calls.ts";

/** A tool call as found on the wire, before normalisation. */
export interface WireToolCall {
  id?: unknown;
  name?: unknown;
  /** A JSON string (OpenAI) or an object (Ollama native). */
  arguments?: unknown;
}

/** The fields every wire format yields. */
export interface WireMessage {
  content: unknown;
  toolCalls: WireToolCall[];
  finishReason?: string;
  usage?: Usage;
  durationMs?: number;
  timing?: ServerTiming;
}

/** Reads `tool_calls` entries of either wire format (`{id?, function: {name, arguments}}`). */
export function wireToolCalls(value: unknown): WireToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.map((call: Record<string, unknown>) => {
    const fn = (call?.function ?? {}) as Record<string, unknown>;
    return { id: call?.id, name: fn.name, arguments: fn.arguments };
  });
}

let generated = 0;

/** A fresh tool call id for servers that send none. */
function newToolCallId(): string {
  generated = (generated + 1) % 1_000_000;
  return `call_${Date.now().toString(36)}${generated.toString(36)}`;
}

/** Arguments as JSON text, whatever shape the server used. Empty means `{}`. */
function argumentsText(value: unknown): string {
  if (value === undefined || value === null || value === "") return "{}";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * Builds the response: native calls win; otherwise tool calls printed as text are recovered,
 * but only for offered tool names. A tool turn is decided by calls found, never finish_reason.
 */
export function toChatResponse(wire: WireMessage, offered: ReadonlySet<string>): ChatResponse {
  const rawContent = typeof wire.content === "string" ? wire.content : "";
  const warnings: string[] = [];
  let toolCalls: ToolCall[] = wire.toolCalls.map((call) => ({
    id: typeof call.id === "string" && call.id ? call.id : newToolCallId(),
    name: typeof call.name === "string" ? call.name : "",
    arguments: argumentsText(call.arguments),
  }));
  let content = toolCalls.length ? stripThinking(rawContent) : rawContent;
  if (!toolCalls.length) {
    const recovery = recoverToolCallsFromText(rawContent, offered);
    if (recovery.calls.length) {
      toolCalls = recovery.calls.map((call) => ({ id: newToolCallId(), ...call }));
      content = recovery.remainingText;
      warnings.push(
        `recovered ${toolCalls.length} tool call(s) the model wrote as text: ` +
          toolCalls.map((call) => call.name).join(", "),
      );
    } else {
      content = stripThinking(rawContent);
    }
  }
  if (wire.finishReason === "length") {
    warnings.push("the answer was cut at the output token limit");
  }
  return {
    content,
    toolCalls,
    usage: wire.usage,
    durationMs: wire.durationMs,
    finishReason: wire.finishReason,
    warnings,
    ...(wire.timing ? { timing: wire.timing } : {}),
  };
}
