/** Reads an HTTP body as a stream, with a size cap and an idle timeout, into text. */
import { concatBytes } from "../../core/bytes.ts";
import { LlmError } from "../../core/errors.ts";

/** Starts a timer and returns its cancel function; injected so tests never wait on wall time. */
export interface Timers {
  start(milliseconds: number, fire: () => void): () => void;
}

/** Real timers (setTimeout). */
export const realTimers: Timers = {
  start(milliseconds, fire) {
    const id = setTimeout(fire, milliseconds);
    return () => clearTimeout(id);
  },
};

/** Limits on one body read. */
export interface BodyLimits {
  maxBytes: number;
  idleTimeoutMs: number;
  timers: Timers;
  /** The server, for messages: `http://host:port`. */
  origin: string;
  /** Stops the request (aborting the fetch) and records why. */
  stop: (reason: LlmError) => void;
}

/** `16 MiB`, `512 KiB`, `900 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The error for a body over the cap. */
function tooLarge(origin: string, maxBytes: number): LlmError {
  return new LlmError(
    "bad_response",
    `${origin} sent more than ${formatBytes(maxBytes)} (llm.max_response_mib); stopped reading.`,
  );
}

/**
 * Reads `response`'s body chunk by chunk: more than `maxBytes` (declared or sent) or a silence
 * longer than `idleTimeoutMs` stops the request with an `LlmError` naming what happened.
 */
export async function readBoundedText(response: Response, limits: BodyLimits): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(limits.origin, limits.maxBytes);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let silent: LlmError | undefined;
      const cancelIdle = limits.timers.start(limits.idleTimeoutMs, () => {
        silent = silence(limits.origin, size, limits.idleTimeoutMs);
        limits.stop(silent);
        reader.cancel().catch(() => {});
      });
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } finally {
        cancelIdle();
      }
      // A cancelled read may end as `done`: a body cut short by the timeout is never an answer.
      if (silent) throw silent;
      if (result.done) break;
      size += result.value.byteLength;
      if (size > limits.maxBytes) {
        const error = tooLarge(limits.origin, limits.maxBytes);
        limits.stop(error);
        throw error;
      }
      chunks.push(result.value);
    }
  } finally {
    reader.cancel().catch(() => {}); // a no-op once done; frees the connection otherwise
  }
  return new TextDecoder().decode(concatBytes(chunks));
}

function silence(origin: string, received: number, idleTimeoutMs: number): LlmError {
  const seconds = `${idleTimeoutMs / 1000} s (llm.idle_timeout_seconds)`;
  return new LlmError(
    "timeout",
    received === 0
      ? `${origin} sent headers then nothing for ${seconds}.`
      : `${origin} sent ${formatBytes(received)} then nothing for ${seconds}.`,
  );
}
