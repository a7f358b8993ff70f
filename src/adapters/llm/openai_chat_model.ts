/** The OpenAI-compatible adapter: `POST /v1/chat/completions` (Ollama /v1, llama-server, vLLM, LM Studio). */
import type {
  ChatModel,
  ChatRequest,
  ChatResponse,
  ModelStatus,
  PromptLimit,
} from "../../core/chat_model.ts";
import { promptRoom } from "./context_window.ts";
import { type LoadedContext, loadedContext } from "./loaded_context.ts";
import { LlmError } from "../../core/errors.ts";
import { classifyHttpError } from "./http_errors.ts";
import { HttpChatModel } from "./http_chat_model.ts";
import { modelIdsOf, openAiChatBody, parseOpenAiChat } from "./openai_wire.ts";
import { type ChatModelOptions, type LlmConfig, parseBody, trimBaseUrl } from "./settings.ts";
import { send, type TransportOptions } from "./transport.ts";

/** `…/v1` for a configured base URL with or without it. */
export function openAiBase(baseUrl: string): string {
  const base = trimBaseUrl(baseUrl);
  return /\/v1$/.test(base) ? base : `${base}/v1`;
}

/** Chat model over an OpenAI-compatible server. */
export class OpenAiChatModel extends HttpChatModel implements ChatModel {
  readonly provider = "openai";
  /** What the server said it loaded, and when it was asked (an unknown answer is asked again). */
  #loaded?: { context?: LoadedContext; at: number };

  constructor(llm: LlmConfig, options: ChatModelOptions, probe: TransportOptions["probe"]) {
    super(llm, options, probe, openAiBase(llm.base_url));
  }

  /** One chat request with retries; zero-value and empty-after-tools answers retried once. */
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const body = openAiChatBody(request, this.model);
    const timed = (response: ChatResponse, _parsed: unknown, durationMs: number) => {
      response.durationMs = durationMs;
      return response;
    };
    return this.chatWithRetries("/chat/completions", body, request, parseOpenAiChat, timed, signal);
  }

  /**
   * The window the server loaded (a request cannot set it): `/api/ps`, the Modelfile's num_ctx or
   * llama-server's `/props`, capped by `llm.max_context_tokens`; asked once (an unknown answer
   * again after a minute: the model may not have been loaded yet).
   */
  async promptLimit(_needed: number, signal?: AbortSignal): Promise<PromptLimit | undefined> {
    const cap = this.llm.max_context_tokens || undefined;
    const loaded = await this.#loadedContext(signal);
    if (cap === undefined && loaded === undefined) return undefined;
    const window = Math.min(cap ?? Infinity, loaded?.tokens ?? Infinity);
    const source = window === loaded?.tokens ? loaded.source : "llm.max_context_tokens";
    return { tokens: promptRoom(window), window, source };
  }

  async #loadedContext(signal?: AbortSignal): Promise<LoadedContext | undefined> {
    const now = (this.options.elapsed ?? (() => performance.now()))();
    const known = this.#loaded;
    if (known && (known.context || now - known.at < 60_000)) return known.context;
    const origin = this.base.replace(/\/v1$/, "");
    const context = await loadedContext(origin, this.model, this.quickTransport(), signal);
    this.#loaded = { context, at: now };
    return context;
  }

  /** Asks `/v1/models` whether the model is listed (and llama-server's `/props` about tools). */
  async status(signal?: AbortSignal): Promise<ModelStatus> {
    const status = this.unknownStatus();
    const quick = this.quickTransport();
    try {
      const answer = await send(`${this.base}/models`, { method: "GET" }, quick, signal);
      status.reachable = true;
      if (answer.status !== 200) {
        status.problem =
          classifyHttpError(answer.status, answer.text, this.subject()).error.message;
        return status;
      }
      const ids = modelIdsOf(parseBody(answer.text, this.base));
      status.modelPresent = ids.some((id) => id === this.model || id.endsWith(`/${this.model}`));
      if (!status.modelPresent) {
        status.problem = ids.length
          ? `model ${this.model} is not in the server's list: ${ids.slice(0, 8).join(", ")}`
          : `the server lists no models; install or load ${this.model}`;
      }
      status.supportsTools = await this.#llamaServerTools(quick, signal);
    } catch (error) {
      status.problem = error instanceof LlmError ? error.message : String(error);
    }
    return status;
  }

  /** llama-server answers `/props` with its template's capabilities; others 404 (unknown). */
  async #llamaServerTools(
    transport: TransportOptions,
    signal?: AbortSignal,
  ): Promise<boolean | undefined> {
    try {
      const origin = this.base.replace(/\/v1$/, "");
      const answer = await send(`${origin}/props`, { method: "GET" }, transport, signal);
      if (answer.status !== 200) return undefined;
      const caps = (parseBody(answer.text, origin) as {
        chat_template_caps?: { supports_tools?: unknown; supports_tool_calls?: unknown };
      })?.chat_template_caps;
      const value = caps?.supports_tool_calls ?? caps?.supports_tools;
      return typeof value === "boolean" ? value : undefined;
    } catch {
      return undefined;
    }
  }
}
