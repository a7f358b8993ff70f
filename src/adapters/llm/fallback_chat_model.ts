/**
 * A chat model with a fallback: while the main server is unreachable (refused, timed out, 5xx such
 * as "loading"), requests go to the fallback server/model, with one warning line naming both. The
 * main server is tried again after a pause, and a line says when it is back.
 */
import type {
  ChatModel,
  ChatRequest,
  ChatResponse,
  ModelStatus,
  PromptLimit,
} from "../../core/chat_model.ts";
import { LlmError } from "../../core/errors.ts";
import type { Logger } from "../../core/ports.ts";

/** A model and how messages name it (`qwen2.5:14b at http://gpu-box.lan:11434`). */
interface NamedModel {
  model: ChatModel;
  name: string;
}

/** The status of the main model plus the fallback's. */
export interface ModelStatusWithFallback extends ModelStatus {
  fallback?: ModelStatus;
}

/** Failures that mean "the main server is not there right now". */
function worthFallingBack(error: unknown): boolean {
  return error instanceof LlmError &&
    (error.kind === "unreachable" || error.kind === "timeout" || error.kind === "server_error");
}

/** Chat through `main`, or `fallback` while main is down. */
export class FallbackChatModel implements ChatModel {
  readonly #main: NamedModel;
  readonly #fallback: NamedModel;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #pauseMs: number;
  /** Until when requests skip the main server (0 = main is in use). */
  #mainDownUntil = 0;

  constructor(
    main: NamedModel,
    fallback: NamedModel,
    options: { logger: Logger; now?: () => number; pauseMs?: number },
  ) {
    this.#main = main;
    this.#fallback = fallback;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#pauseMs = options.pauseMs ?? 5 * 60_000;
  }

  get provider(): string {
    return this.#current().model.provider;
  }

  get model(): string {
    return this.#current().model.model;
  }

  /** Main first (unless it failed within the pause), the fallback when main is unreachable. */
  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (this.#mainDownUntil > this.#now()) return await this.#viaFallback(request, signal);
    try {
      const response = await this.#main.model.chat(request, signal);
      if (this.#mainDownUntil) {
        this.#mainDownUntil = 0;
        this.#logger.info(`${this.#main.name} answers again; the fallback is no longer used.`);
      }
      return response;
    } catch (error) {
      if (!worthFallingBack(error) || signal?.aborted) throw error;
      const minutes = Math.round(this.#pauseMs / 60_000);
      this.#logger.warn(
        `${(error as Error).message} Using the fallback ${this.#fallback.name} ` +
          `(llm.models.fallback); ${this.#main.name} is tried again in ${minutes} min.`,
      );
      this.#mainDownUntil = this.#now() + this.#pauseMs;
      return await this.#viaFallback(request, signal, error as LlmError);
    }
  }

  /** The smaller of both limits: a request built for one may be answered by the other. */
  async promptLimit(needed: number, signal?: AbortSignal): Promise<PromptLimit | undefined> {
    const limits = await Promise.all([
      this.#main.model.promptLimit?.(needed, signal),
      this.#fallback.model.promptLimit?.(needed, signal),
    ]);
    const known = limits.filter((limit): limit is PromptLimit => limit !== undefined);
    return known.length ? known.reduce((a, b) => (b.tokens < a.tokens ? b : a)) : undefined;
  }

  /** Both statuses: the main's, with the fallback's under `fallback`. */
  async status(signal?: AbortSignal): Promise<ModelStatusWithFallback> {
    const [main, fallback] = await Promise.all([
      this.#main.model.status(signal),
      this.#fallback.model.status(signal),
    ]);
    const covered = !main.reachable && fallback.reachable && !fallback.problem;
    return {
      ...main,
      fallback,
      problem: main.problem && covered
        ? `${main.problem} (the fallback ${this.#fallback.name} answers meanwhile)`
        : main.problem,
    };
  }

  #current(): NamedModel {
    return this.#mainDownUntil > this.#now() ? this.#fallback : this.#main;
  }

  async #viaFallback(
    request: ChatRequest,
    signal: AbortSignal | undefined,
    mainError?: LlmError,
  ): Promise<ChatResponse> {
    try {
      return await this.#fallback.model.chat(request, signal);
    } catch (error) {
      if (!(error instanceof LlmError) || error.kind === "cancelled") throw error;
      const main = mainError?.message ?? `${this.#main.name} was unreachable moments ago.`;
      throw new LlmError(
        error.kind,
        `Neither model answered. Main: ${main} Fallback: ${error.message}`,
        false,
        { cause: error },
      );
    }
  }
}
