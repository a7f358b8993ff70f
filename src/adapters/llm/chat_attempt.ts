/** One attempt at a chat request, shared by both wire formats: send, classify, parse, check. */
import type { ChatResponse } from "../../core/chat_model.ts";
import { LlmError } from "../../core/errors.ts";
import { classifyHttpError, type ErrorSubject, toolCapableModels } from "./http_errors.ts";
import { toChatResponse, type WireMessage } from "./response_parts.ts";
import { RetryableFailure } from "./retry.ts";
import { retryAfterMs } from "./retry_after.ts";
import { type HttpAnswer, send, type TransportOptions } from "./transport.ts";

/** A wire format's reading of a 2xx body. */
export interface ParsedAnswer {
  message: WireMessage;
  /** An error object sent with a 2xx status. */
  error?: string;
  /** Nothing in it at all (Go zero-value answer, no message). */
  empty: boolean;
}

/** What one attempt needs. */
export interface ChatAttempt<Parsed extends ParsedAnswer> {
  url: string;
  body: unknown;
  transport: TransportOptions;
  subject: ErrorSubject;
  offered: ReadonlySet<string>;
  parse: (body: unknown) => Parsed;
  signal?: AbortSignal;
  /** Wall-clock milliseconds, for `Retry-After` dates (default Date.now). */
  now?: () => number;
}

/**
 * Sends once and returns the response, or throws `RetryableFailure` carrying how often this kind
 * of failure deserves a retry (HTTP errors by class; 2xx error bodies, empty answers: once).
 */
export async function attemptChat<Parsed extends ParsedAnswer>(
  attempt: ChatAttempt<Parsed>,
): Promise<{ response: ChatResponse; parsed: Parsed }> {
  const { subject } = attempt;
  const answer = await send(
    attempt.url,
    { method: "POST", body: attempt.body },
    attempt.transport,
    attempt.signal,
  );
  if (answer.status < 200 || answer.status > 299) {
    const { error, maxRetries } = classifyHttpError(answer.status, answer.text, subject);
    const now = attempt.now ?? Date.now;
    const retryAfter = retryAfterMs(answer.headers.get("retry-after"), now());
    throw new RetryableFailure(error, maxRetries, maxRetries > 0 ? retryAfter : undefined);
  }
  const parsed = attempt.parse(jsonBody(answer, subject));
  if (parsed.error !== undefined) {
    const body = JSON.stringify({ error: parsed.error });
    const { error, maxRetries } = classifyHttpError(500, body, subject);
    throw new RetryableFailure(error, Math.min(maxRetries, 1));
  }
  const response = toChatResponse(parsed.message, attempt.offered);
  if (parsed.empty || emptyAfterTools(response, attempt.offered.size > 0)) {
    throw new RetryableFailure(emptyAnswer(subject, response), 1);
  }
  return { response, parsed };
}

/** The parsed 2xx body; one that is not JSON is a once-retryable bad response saying so. */
function jsonBody(answer: HttpAnswer, subject: ErrorSubject): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new RetryableFailure(
      new LlmError(
        "bad_response",
        `${subject.baseUrl} answered ${answer.status} with a body that is not JSON: ` +
          `${bodyPreview(answer.text)}`,
      ),
      1,
    );
  }
}

/** The first 80 characters of a body, on one line, control characters removed. */
export function bodyPreview(text: string): string {
  // deno-lint-ignore no-control-regex -- removing control characters is the point
  const line = text.replace(/[\x00-\x1f\x7f]+/g, " ").replace(/\s+/g, " ").trim();
  if (!line) return "(empty body)";
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/** Tools were offered, the model spent tokens, yet nothing came back: a failed tool-call parse. */
function emptyAfterTools(response: ChatResponse, toolsOffered: boolean): boolean {
  return toolsOffered && !response.content.trim() && !response.toolCalls.length &&
    (response.usage?.completionTokens ?? 0) > 0;
}

/** The error for an answer with nothing in it. */
function emptyAnswer(subject: ErrorSubject, response: ChatResponse): LlmError {
  const tokens = response.usage?.completionTokens;
  return new LlmError(
    "bad_response",
    `The model server at ${subject.baseUrl} returned an empty answer` +
      (tokens ? ` after generating ${tokens} tokens (a tool call it could not parse)` : "") +
      `. Ask again, or use a model with better tool support (e.g. ${toolCapableModels}).`,
  );
}
