/** Retries with exponential backoff for failures worth retrying (server loading, busy, down). */
import { LlmError } from "../../core/errors.ts";
import type { Logger } from "../../core/ports.ts";

/** A failure plus how many retries it deserves (0 = never). */
export class RetryableFailure extends Error {
  /**
   * @param retryAfterMs the server's own `Retry-After`, when it sent one: waited exactly (within
   *   the wait budget) instead of the backoff.
   */
  constructor(
    readonly error: LlmError,
    readonly maxRetries: number,
    readonly retryAfterMs?: number,
  ) {
    super(error.message, { cause: error });
  }
}

/** Retry settings. */
export interface RetryOptions {
  /** The most retries for any failure (llm.retries). */
  retries: number;
  /** Waits between attempts; injected so tests never wait on wall-clock time. */
  sleep: (milliseconds: number) => Promise<void>;
  logger: Logger;
  signal?: AbortSignal;
  /** Base delay; doubles per attempt (1 s, 2 s, 4 s …). */
  baseDelayMs?: number;
  /** The most time spent waiting between attempts of one request (llm.max_retry_wait_seconds). */
  maxWaitMs?: number;
}

/** Delay before retry number `attempt` (1-based): exponential with ±20 % jitter. */
function backoffDelay(attempt: number, baseDelayMs: number, random = Math.random): number {
  const delay = baseDelayMs * 2 ** (attempt - 1);
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/**
 * Runs `attempt` until it succeeds, throws a non-retryable error, or the retry budget is spent.
 * `attempt` signals retryable failures by throwing `RetryableFailure` or a retryable `LlmError`.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  let waited = 0;
  for (let tried = 0;; tried++) {
    try {
      return await attempt();
    } catch (thrown) {
      const failure = thrown instanceof RetryableFailure
        ? thrown
        : thrown instanceof LlmError && thrown.retryable
        ? new RetryableFailure(thrown, options.retries)
        : undefined;
      if (!failure) throw thrown;
      const budget = Math.min(options.retries, failure.maxRetries);
      if (tried >= budget || options.signal?.aborted) throw failure.error;
      const left = (options.maxWaitMs ?? Infinity) - waited;
      const asked = failure.retryAfterMs;
      if (asked !== undefined && asked > left) throw waitTooLong(failure.error, asked, left);
      const delay = Math.min(asked ?? backoffDelay(tried + 1, options.baseDelayMs ?? 1000), left);
      options.logger.warn(
        `${failure.error.message} Retrying in ${(delay / 1000).toFixed(1)} s` +
          `${asked === undefined ? "" : " (the server's Retry-After)"} (${tried + 1}/${budget}).`,
      );
      waited += delay;
      await options.sleep(delay);
      if (options.signal?.aborted) throw new LlmError("cancelled", "Cancelled.");
    }
  }
}

/** The server asked for a longer pause than the wait budget has left: give up, say so. */
function waitTooLong(error: LlmError, askedMs: number, leftMs: number): LlmError {
  const left = Math.max(0, Math.floor(leftMs / 1000));
  return new LlmError(
    error.kind,
    `${error.message} It asked to retry after ${Math.ceil(askedMs / 1000)} s (Retry-After), ` +
      `more than the ${left} s left of llm.max_retry_wait_seconds: giving up.`,
    false,
    { cause: error },
  );
}
