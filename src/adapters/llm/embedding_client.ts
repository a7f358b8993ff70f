/**
 * The embedding model adapter: Ollama `POST /api/embed` or OpenAI-compatible `POST /v1/embeddings`,
 * over the same transport as chat (streamed reads under the size cap, first-byte/idle/total
 * timeouts, Retry-After). Every failure is one `LlmError` line; callers fall back to keywords.
 */
import type { EmbeddingModel } from "../../core/embedding_model.ts";
import { LlmError } from "../../core/errors.ts";
import { bodyPreview } from "./chat_attempt.ts";
import {
  checkVectors,
  ollamaEmbedBody,
  ollamaVectors,
  openAiEmbedBody,
  openAiVectors,
} from "./embedding_wire.ts";
import { classifyHttpError, type ErrorSubject } from "./http_errors.ts";
import { openAiBase } from "./openai_chat_model.ts";
import { retryAfterMs } from "./retry_after.ts";
import { RetryableFailure, withRetries } from "./retry.ts";
import {
  type ChatModelOptions,
  type LlmConfig,
  retryOptions,
  transportOptions,
  trimBaseUrl,
} from "./settings.ts";
import { send, type TransportOptions } from "./transport.ts";

/** Texts per request (servers and memory both like bounded batches). */
const batchSize = 64;

/** Where and how to embed. */
interface EmbeddingSettings {
  provider: "ollama" | "openai";
  baseUrl: string;
  model: string;
}

/** Embeddings over HTTP for one server and model. */
export class HttpEmbeddingModel implements EmbeddingModel {
  readonly model: string;
  readonly #settings: EmbeddingSettings;
  readonly #llm: LlmConfig;
  readonly #options: ChatModelOptions;
  readonly #transport: TransportOptions;
  readonly #url: string;

  constructor(
    settings: EmbeddingSettings,
    llm: LlmConfig,
    options: ChatModelOptions,
    probe: TransportOptions["probe"],
  ) {
    this.#settings = settings;
    this.#llm = llm;
    this.#options = options;
    this.model = settings.model;
    this.#url = settings.provider === "openai"
      ? `${openAiBase(settings.baseUrl)}/embeddings`
      : `${trimBaseUrl(settings.baseUrl)}/api/embed`;
    this.#transport = {
      ...transportOptions({ ...llm, provider: settings.provider }, options, probe),
      serverLabel: "embedding server",
      startHint: "Embeddings are off until it answers (llm.embedding_model, " +
        "llm.embedding_base_url); Radar falls back to keyword search.",
    };
  }

  /** One vector per text, in order; batches of 64. */
  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      vectors.push(...await this.#embedBatch(texts.slice(start, start + batchSize), signal));
    }
    return vectors;
  }

  async #embedBatch(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const subject: ErrorSubject = {
      baseUrl: trimBaseUrl(this.#settings.baseUrl),
      model: this.model,
      provider: this.#settings.provider,
    };
    const ollama = this.#settings.provider === "ollama";
    const body = ollama
      ? ollamaEmbedBody(this.model, texts, this.#llm.keep_alive)
      : openAiEmbedBody(this.model, texts);
    const retries = { ...retryOptions(this.#llm, this.#options, signal) };
    // A caller falls back to keywords when this fails: one retry at most, never minutes of backoff.
    retries.retries = Math.min(retries.retries, 1);
    return await withRetries(async () => {
      const answer = await send(this.#url, { method: "POST", body }, this.#transport, signal);
      if (answer.status < 200 || answer.status > 299) {
        const { error, maxRetries } = classifyHttpError(answer.status, answer.text, subject);
        const now = this.#options.now ?? Date.now;
        const wait = retryAfterMs(answer.headers.get("retry-after"), now());
        throw new RetryableFailure(error, maxRetries, maxRetries > 0 ? wait : undefined);
      }
      let json: unknown;
      try {
        json = JSON.parse(answer.text);
      } catch {
        throw new LlmError(
          "bad_response",
          `${subject.baseUrl} answered ${answer.status} with a body that is not JSON: ` +
            bodyPreview(answer.text),
        );
      }
      const checked = checkVectors(
        ollama ? ollamaVectors(json) : openAiVectors(json),
        texts.length,
      );
      if ("problem" in checked) {
        throw new LlmError(
          "bad_response",
          `The embedding server at ${subject.baseUrl} answered with ${checked.problem} ` +
            `(model ${this.model}; is it an embedding model?).`,
        );
      }
      return checked.vectors;
    }, retries);
  }
}
