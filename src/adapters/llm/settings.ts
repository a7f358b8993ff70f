/** Settings shared by both LLM adapters, derived from the `llm:` config section. */
import type { RadarConfig } from "../../config/schema.ts";
import type { Logger } from "../../core/ports.ts";
import type { TransportOptions } from "./transport.ts";
import type { Timers } from "./bounded_body.ts";
import type { RetryOptions } from "./retry.ts";

/** The `llm:` config section. */
export type LlmConfig = RadarConfig["llm"];

/** What the LLM adapters need from the outside. */
export interface ChatModelOptions {
  fetch: typeof fetch;
  logger: Logger;
  /** Waits between retries; injectable so tests never wait on wall-clock time. */
  sleep: (milliseconds: number) => Promise<void>;
  /** TCP reachability check before each request (default: a real connect with the timeout). */
  probe?: TransportOptions["probe"];
  /** Monotonic milliseconds, for measuring model time when the server reports none. */
  elapsed?: () => number;
  /** Wall-clock milliseconds, for `Retry-After` dates (default Date.now). */
  now?: () => number;
  /** Timers of the first-byte, idle and total timeouts (default real ones). */
  timers?: Timers;
}

/** Base URL without trailing slashes. */
export function trimBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Transport options from config. */
export function transportOptions(
  llm: LlmConfig,
  options: ChatModelOptions,
  probe: TransportOptions["probe"],
): TransportOptions {
  return {
    fetch: options.fetch,
    apiKey: llm.api_key,
    connectTimeoutMs: llm.connect_timeout_seconds * 1000,
    responseTimeoutMs: llm.response_timeout_seconds * 1000,
    firstByteTimeoutMs: llm.first_byte_timeout_seconds * 1000,
    idleTimeoutMs: llm.idle_timeout_seconds * 1000,
    maxResponseBytes: Math.round(llm.max_response_mib * 1024 * 1024),
    timers: options.timers,
    probe,
    startHint: llm.provider === "openai"
      ? "Check that the server runs (`ollama serve`, `llama-server`, vLLM, LM Studio) and that " +
        "llm.base_url (RADAR_LLM_BASE_URL) points at it."
      : "Start Ollama with `ollama serve`, or set llm.base_url (RADAR_LLM_BASE_URL) to where it runs.",
  };
}

/** Retry options from config. */
export function retryOptions(
  llm: LlmConfig,
  options: ChatModelOptions,
  signal?: AbortSignal,
): RetryOptions {
  return {
    retries: llm.retries,
    sleep: options.sleep,
    logger: options.logger,
    signal,
    maxWaitMs: llm.max_retry_wait_seconds * 1000,
  };
}

/** Parses a 2xx body; a body that is not JSON is a (once-retryable) bad response. */
export function parseBody(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: `${origin} returned a body that is not JSON: ${text.slice(0, 120)}` };
  }
}
