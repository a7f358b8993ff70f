/** OpenAI-compatible `/v1/chat/completions` request and response mapping (pure). */
import type { ChatMessage, ChatRequest } from "../../core/chat_model.ts";
import { type WireMessage, wireToolCalls } from "./response_parts.ts";

/** The JSON body of `POST /v1/chat/completions` (always `stream:false`, tools in `tools`). */
export function openAiChatBody(request: ChatRequest, model: string) {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map(openAiMessage),
    stream: false,
    temperature: request.temperature,
  };
  if (request.tools.length) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  return body;
}

function openAiMessage(message: ChatMessage) {
  const wire: Record<string, unknown> = { role: message.role, content: message.content };
  // Content parts: the text, then each image as a base64 data URL (http URLs are refused).
  if (message.images?.length) {
    wire.content = [
      { type: "text", text: message.content },
      ...message.images.map((image) => ({
        type: "image_url",
        image_url: { url: `data:image/png;base64,${image}` },
      })),
    ];
  }
  if (message.toolCalls?.length) {
    wire.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: validJsonOrEmpty(call.arguments) },
    }));
  }
  if (message.role === "tool") {
    wire.tool_call_id = message.toolCallId ?? "";
    if (message.toolName) wire.name = message.toolName;
  }
  return wire;
}

/** Servers reject history whose arguments are not valid JSON (Ollama: 400 invalid tool call arguments). */
function validJsonOrEmpty(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return "{}";
  }
}

/** A parsed completion: the message parts and whether it is the Go zero-value answer. */
export interface OpenAiAnswer {
  message: WireMessage;
  /** `created <= 0`, `model:""`, no choices or an empty role: a server that produced nothing. */
  empty: boolean;
  error?: string;
}

/** Reads a `/v1/chat/completions` body (stream:false), tolerating every known server's shape. */
export function parseOpenAiChat(body: unknown): OpenAiAnswer {
  const record = (body ?? {}) as Record<string, unknown>;
  const errorBody = record.error as { message?: unknown } | string | undefined;
  if (errorBody || record.object === "error") {
    const message = typeof errorBody === "string"
      ? errorBody
      : String(errorBody?.message ?? record.message ?? "unknown error");
    return { message: { content: "", toolCalls: [] }, empty: false, error: message };
  }
  const choice = (Array.isArray(record.choices) ? record.choices[0] : undefined) ?? {};
  const message = (choice.message ?? {}) as Record<string, unknown>;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const usage = record.usage as Record<string, unknown> | undefined;
  // llama-server's extra `timings` (prompt_ms, predicted_ms).
  const timings = record.timings as Record<string, unknown> | undefined;
  const promptMs = typeof timings?.prompt_ms === "number" ? timings.prompt_ms : undefined;
  const generationMs = typeof timings?.predicted_ms === "number" ? timings.predicted_ms : undefined;
  const empty = choice.message === undefined ||
    (typeof record.created === "number" && record.created <= 0) ||
    (message.role === "" && !message.content && !calls.length);
  return {
    message: {
      content: message.content,
      toolCalls: wireToolCalls(message.tool_calls),
      finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : undefined,
      usage: usage && typeof usage.prompt_tokens === "number"
        ? {
          promptTokens: usage.prompt_tokens,
          completionTokens: typeof usage.completion_tokens === "number"
            ? usage.completion_tokens
            : 0,
        }
        : undefined,
      ...(promptMs !== undefined || generationMs !== undefined
        ? { timing: { promptMs, generationMs } }
        : {}),
    },
    empty,
  };
}

/** Model ids from a `/v1/models` answer (`data` may be null when the server has none). */
export function modelIdsOf(body: unknown): string[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return [];
  return data.map((entry) => (entry as { id?: unknown })?.id).filter((id): id is string =>
    typeof id === "string"
  );
}
