/** Ollama native `/api/chat` request and response mapping (pure). */
import type { ChatMessage, ChatRequest } from "../../core/chat_model.ts";
import { type WireMessage, wireToolCalls } from "./response_parts.ts";

/** Extra request settings of the native API. */
export interface OllamaRequestSettings {
  model: string;
  numCtx?: number;
  keepAlive: string;
}

/** The JSON body of `POST /api/chat` (always `stream:false`, tools in `tools`). */
export function ollamaChatBody(request: ChatRequest, settings: OllamaRequestSettings) {
  const options: Record<string, number> = { temperature: request.temperature };
  if (settings.numCtx) options.num_ctx = settings.numCtx;
  return {
    model: settings.model,
    messages: request.messages.map(ollamaMessage),
    tools: request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    stream: false,
    keep_alive: settings.keepAlive,
    options,
  };
}

function ollamaMessage(message: ChatMessage) {
  const wire: Record<string, unknown> = { role: message.role, content: message.content };
  // Native API: base64 images beside the text (docs/api.md, "images").
  if (message.images?.length) wire.images = message.images;
  if (message.toolCalls?.length) {
    wire.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      function: { name: call.name, arguments: argumentsObject(call.arguments) },
    }));
  }
  if (message.role === "tool") {
    if (message.toolName) wire.tool_name = message.toolName;
    if (message.toolCallId) wire.tool_call_id = message.toolCallId;
  }
  return wire;
}

/** History must carry arguments as an object; unparseable text (a failed call) becomes {}. */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A parsed `/api/chat` answer: the message parts, prompt token count, and a server error if any. */
export interface OllamaAnswer {
  message: WireMessage;
  promptEvalCount?: number;
  /** `{"error": …}` sent with status 200. */
  error?: string;
  /** True when the body has no message at all (a zero-value answer). */
  empty: boolean;
}

/** Reads a `/api/chat` body (stream:false), tolerating every known shape. */
export function parseOllamaChat(body: unknown): OllamaAnswer {
  const record = (body ?? {}) as Record<string, unknown>;
  if (typeof record.error === "string") {
    return { message: { content: "", toolCalls: [] }, error: record.error, empty: true };
  }
  const message = (record.message ?? {}) as Record<string, unknown>;
  const promptTokens = numberOr(record.prompt_eval_count);
  const completionTokens = numberOr(record.eval_count);
  const totalNs = numberOr(record.total_duration);
  return {
    message: {
      content: message.content,
      toolCalls: wireToolCalls(message.tool_calls),
      finishReason: typeof record.done_reason === "string" ? record.done_reason : undefined,
      usage: promptTokens !== undefined || completionTokens !== undefined
        ? { promptTokens: promptTokens ?? 0, completionTokens: completionTokens ?? 0 }
        : undefined,
      durationMs: totalNs !== undefined ? Math.round(totalNs / 1e6) : undefined,
      timing: timingOf(record),
    },
    promptEvalCount: promptTokens,
    empty: record.message === undefined,
  };
}

/** Load, prompt and answer time from the body's nanosecond durations (absent: not said). */
function timingOf(record: Record<string, unknown>) {
  const ms = (value: unknown) => {
    const ns = numberOr(value);
    return ns === undefined ? undefined : ns / 1e6;
  };
  const timing = {
    loadMs: ms(record.load_duration),
    promptMs: ms(record.prompt_eval_duration),
    generationMs: ms(record.eval_duration),
  };
  return Object.values(timing).some((value) => value !== undefined) ? timing : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The model's context length from an `/api/show` answer (`model_info["<arch>.context_length"]`). */
export function contextLengthOf(show: unknown): number | undefined {
  const info = (show as { model_info?: Record<string, unknown> })?.model_info ?? {};
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith(".context_length") && typeof value === "number") return value;
  }
  return undefined;
}

/** Whether an `/api/show` answer says the model supports tools (`capabilities` or template). */
export function supportsToolsOf(show: unknown): boolean | undefined {
  const record = show as { capabilities?: unknown; template?: unknown };
  if (Array.isArray(record?.capabilities)) return record.capabilities.includes("tools");
  if (typeof record?.template === "string") return /\.Tools|tool_call/.test(record.template);
  return undefined;
}
