/**
 * The chat model port: what the agent loop needs from an LLM server, and the messages exchanged
 * with it, independent of any wire format.
 */

/** Who wrote a message. */
export type Role = "system" | "user" | "assistant" | "tool";

/** One tool call requested by the model. `arguments` is the raw JSON text as the model sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation. */
export interface ChatMessage {
  role: Role;
  content: string;
  /** Set on assistant messages that request tools. */
  toolCalls?: ToolCall[];
  /** Set on tool messages: which call this answers. */
  toolCallId?: string;
  /** Set on tool messages: the tool that produced the result. */
  toolName?: string;
  /** Base64 PNG images shown with a user message (vision models only). */
  images?: string[];
  /**
   * Set on assistant messages a run stored: what that run had read when the model wrote them
   * (its words may hold any of it). Never sent to the model.
   */
  readFrom?: ReadSources;
}

/**
 * What a run had read, by source ("tool read_file", "events"): everything from outside, and the
 * part of it that was private (`src/away/run_labels.ts`). A later run that replays words written
 * after those reads has read them too.
 */
export interface ReadSources {
  untrusted: string[];
  private: string[];
}

/** Token counts as reported by the server (absent when it reports none). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** Adds two optional usages, keeping `undefined` only when both are. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}

/** JSON a model wrote (call arguments, an answer), parsed; undefined when absent or not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A tool as offered to the model (OpenAI function shape, wire-format neutral). */
export interface ToolSpec {
  name: string;
  /** One short line: the model pays for every token on every call. */
  description: string;
  /** JSON Schema of the arguments object, as compact as possible. */
  parameters: Record<string, unknown>;
}

/** One request to the model. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  temperature: number;
  /** Estimated prompt tokens (system + history + tools), used to size the context window. */
  estimatedPromptTokens?: number;
  /**
   * The user turns are a person's own words (chat, ask, task): sent as typed, never masked.
   * Otherwise (heartbeat, triage, summaries) they are Radar's text, masked like the rest.
   */
  typedByPerson?: boolean;
}

/** The model's answer to one request. */
export interface ChatResponse {
  content: string;
  /** Non-empty when the model wants tools run (never inferred from finish_reason). */
  toolCalls: ToolCall[];
  usage?: Usage;
  /** Server-reported or measured model time in milliseconds. */
  durationMs?: number;
  finishReason?: string;
  /** Warnings worth surfacing (prompt truncated, tool call recovered from text...). */
  warnings?: string[];
  /** What the server measured, when it says (Ollama native, llama-server): tokens per second. */
  timing?: ServerTiming;
}

/** Milliseconds the server spent loading the model, reading the prompt and writing the answer. */
export interface ServerTiming {
  loadMs?: number;
  promptMs?: number;
  generationMs?: number;
}

/** What the server says about the configured model. */
export interface ModelStatus {
  baseUrl: string;
  provider: string;
  model: string;
  reachable: boolean;
  modelPresent?: boolean;
  supportsTools?: boolean;
  contextLength?: number;
  /** One readable line when something is wrong. */
  problem?: string;
}

/** How many prompt tokens one request may carry, and the context window that says so. */
export interface PromptLimit {
  /** The most estimated prompt tokens (messages plus tool schemas), room for the answer kept. */
  tokens: number;
  /** The context window in tokens (prompt and answer). */
  window: number;
  /** Where the window comes from, for messages: "llm.max_context_tokens", "/api/ps"… */
  source: string;
}

/** Port: a chat model server. Implementations throw `LlmError` for failures. */
export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
  status(signal?: AbortSignal): Promise<ModelStatus>;
  /**
   * The context the server will use for a prompt of `needed` estimated tokens: undefined when
   * neither the config nor the server tells. Exact whenever `needed` does not fit; a prompt
   * that surely fits may be answered without asking the server (then `tokens` ≥ `needed`).
   */
  promptLimit?(needed: number, signal?: AbortSignal): Promise<PromptLimit | undefined>;
}
