/** What both chat adapters (Ollama's native API, OpenAI-compatible servers) share over HTTP. */
import type { ChatRequest, ChatResponse, ModelStatus } from "../../core/chat_model.ts";
import { attemptChat, type ParsedAnswer } from "./chat_attempt.ts";
import type { ErrorSubject } from "./http_errors.ts";
import { withRetries } from "./retry.ts";
import {
  type ChatModelOptions,
  type LlmConfig,
  retryOptions,
  transportOptions,
} from "./settings.ts";
import type { TransportOptions } from "./transport.ts";

/** A chat model over one server: its settings, transport and base URL. */
export abstract class HttpChatModel {
  abstract readonly provider: "ollama" | "openai";
  readonly model: string;

  constructor(
    protected readonly llm: LlmConfig,
    protected readonly options: ChatModelOptions,
    probe: TransportOptions["probe"],
    protected readonly base: string,
    protected readonly transport = transportOptions(llm, options, probe),
  ) {
    this.model = llm.model;
  }

  /** How errors name the server and model. */
  protected subject(): ErrorSubject {
    return { baseUrl: this.base, model: this.model, provider: this.provider };
  }

  /** The transport for status questions: an answer within 15 s at the most. */
  protected quickTransport(): TransportOptions {
    return {
      ...this.transport,
      responseTimeoutMs: Math.min(this.transport.responseTimeoutMs, 15_000),
    };
  }

  /** A status that knows only who is asked (not reachable yet). */
  protected unknownStatus(): ModelStatus {
    return { baseUrl: this.base, provider: this.provider, model: this.model, reachable: false };
  }

  /** POSTs `body` to `path` with the configured retries; `check` sees each answer and its time. */
  protected chatWithRetries<Parsed extends ParsedAnswer>(
    path: string,
    body: unknown,
    request: ChatRequest,
    parse: (body: unknown) => Parsed,
    check: (response: ChatResponse, parsed: Parsed, durationMs: number) => ChatResponse,
    signal?: AbortSignal,
  ): Promise<ChatResponse> {
    const subject = this.subject();
    const offered = new Set(request.tools.map((tool) => tool.name));
    const elapsed = this.options.elapsed ?? (() => performance.now());
    return withRetries(async () => {
      const started = elapsed();
      const { response, parsed } = await attemptChat({
        url: `${this.base}${path}`,
        body,
        transport: this.transport,
        subject,
        offered,
        parse,
        signal,
        now: this.options.now,
      });
      return check(response, parsed, Math.round(elapsed() - started));
    }, retryOptions(this.llm, this.options, signal));
  }
}
