/** The Ollama native adapter: `POST /api/chat` with `num_ctx` sized to the prompt. */
import type {
  ChatModel,
  ChatRequest,
  ChatResponse,
  ModelStatus,
  PromptLimit,
} from "../../core/chat_model.ts";
import {
  chooseContextWindow,
  minimumContextTokens,
  promptRoom,
  truncationSuspected,
} from "./context_window.ts";
import { classifyHttpError, toolCapableModels } from "./http_errors.ts";
import {
  contextLengthOf,
  ollamaChatBody,
  parseOllamaChat,
  supportsToolsOf,
} from "./ollama_wire.ts";
import { HttpChatModel } from "./http_chat_model.ts";
import { type ChatModelOptions, type LlmConfig, parseBody, trimBaseUrl } from "./settings.ts";
import { send, type TransportOptions } from "./transport.ts";

/** Chat model over Ollama's native API. */
export class OllamaChatModel extends HttpChatModel implements ChatModel {
  readonly provider = "ollama";
  #modelContext?: number;

  constructor(llm: LlmConfig, options: ChatModelOptions, probe: TransportOptions["probe"]) {
    super(llm, options, probe, trimBaseUrl(llm.base_url));
  }

  /** One chat request with retries; every known quirk of /api/chat handled. */
  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const estimated = request.estimatedPromptTokens ?? 0;
    // The model's own length can only lower a window; at the minimum window Ollama clamps to the
    // model's trained length itself, so /api/show is asked only when a bigger window is needed.
    const wanted = chooseContextWindow(estimated, this.#modelContext, this.llm.max_context_tokens);
    const window = wanted.numCtx > minimumContextTokens && this.#modelContext === undefined
      ? chooseContextWindow(
        estimated,
        await this.#contextLength(signal),
        this.llm.max_context_tokens,
      )
      : wanted;
    const body = ollamaChatBody(request, {
      model: this.model,
      numCtx: window.numCtx,
      keepAlive: this.llm.keep_alive,
    });
    return await this.chatWithRetries("/api/chat", body, request, parseOllamaChat, (
      response,
      parsed,
    ) => {
      if (window.overflow) {
        response.warnings?.push(
          `the prompt (~${estimated} tokens) is larger than the model's context window ` +
            `(${window.numCtx}); Ollama will drop the oldest messages`,
        );
      }
      if (truncationSuspected(parsed.promptEvalCount, estimated, window.numCtx)) {
        response.warnings?.push(
          `Ollama evaluated ${parsed.promptEvalCount} prompt tokens of ~${estimated}: the prompt ` +
            `was probably truncated (system prompt and tools lost). Raise the model's context.`,
        );
      }
      return response;
    }, signal);
  }

  /**
   * The window Radar will ask for (`num_ctx`): `llm.max_context_tokens`, else the model's own
   * length. A prompt that fits the smallest window needs no question to the server.
   */
  async promptLimit(needed: number, signal?: AbortSignal): Promise<PromptLimit | undefined> {
    const cap = this.llm.max_context_tokens || undefined;
    const smallest = Math.min(minimumContextTokens, cap ?? minimumContextTokens);
    if (needed <= promptRoom(smallest) && this.#modelContext === undefined) {
      const source = cap === smallest ? "llm.max_context_tokens" : "Ollama's smallest window";
      return { tokens: promptRoom(smallest), window: smallest, source };
    }
    const model = await this.#contextLength(signal);
    if (cap === undefined && model === undefined) return undefined;
    const window = Math.min(cap ?? Infinity, model ?? Infinity);
    const source = window === cap ? "llm.max_context_tokens" : "the model's context length";
    return { tokens: promptRoom(window), window, source };
  }

  /** Asks `/api/show` whether the model exists, supports tools, and its context length. */
  async status(signal?: AbortSignal): Promise<ModelStatus> {
    const status = this.unknownStatus();
    try {
      const answer = await this.#show(signal);
      status.reachable = true;
      if (answer.status === 404) {
        status.modelPresent = false;
        status.problem = `model ${this.model} is not installed: run \`ollama pull ${this.model}\``;
        return status;
      }
      if (answer.status !== 200) {
        status.problem =
          classifyHttpError(answer.status, answer.text, this.subject()).error.message;
        return status;
      }
      const show = parseBody(answer.text, this.base);
      status.modelPresent = true;
      status.supportsTools = supportsToolsOf(show);
      status.contextLength = contextLengthOf(show);
      if (status.supportsTools === false) {
        status.problem = `model ${this.model} does not support tool calling; use one that does, ` +
          `e.g. ${toolCapableModels}`;
      }
    } catch (error) {
      status.problem = error instanceof Error ? error.message : String(error);
    }
    return status;
  }

  #show(signal?: AbortSignal) {
    const body = { model: this.model };
    return send(`${this.base}/api/show`, { method: "POST", body }, this.quickTransport(), signal);
  }

  /** The model's context length, asked once; unknown (undefined) when /api/show fails. */
  async #contextLength(signal?: AbortSignal): Promise<number | undefined> {
    if (this.#modelContext !== undefined) return this.#modelContext;
    try {
      const answer = await this.#show(signal);
      if (answer.status === 200) {
        this.#modelContext = contextLengthOf(parseBody(answer.text, this.base)) ?? 0;
      }
    } catch { /* the chat request reports reachability itself */ }
    return this.#modelContext || undefined;
  }
}
