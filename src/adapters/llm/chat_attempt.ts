/** One attempt at a chat request, shared by both wire formats: send, classify, parse, check. */
import type { ChatResponse } from "../../core/chat_model.ts";
import { LlmError } from "../../core/errors.ts";
import { classifyHttpError, type ErrorSubject, toolCapableModels } from "./http_errors.ts";
import { toChatResponse, type WireMessage } from "./response_parts.ts";
import { RetryableFailure } from "./retry.ts";
import { parseBody } from "./settings.ts";
import { send, type TransportOptions } from "./transport.ts";

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
    throw new RetryableFailure(error, maxRetries);
  }
  const parsed = attempt.parse(parseBody(answer.text, subject.baseUrl));
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

/** Tools were offered, the model spent tokens, yet nothing came back: a failed tool-call parse. */
export function emptyAfterTools(response: ChatResponse, toolsOffered: boolean): boolean {
  return toolsOffered && !response.content.trim() && !response.toolCalls.length &&
    (response.usage?.completionTokens ?? 0) > 0;
}

/** The error for an answer with nothing in it. */
export function emptyAnswer(subject: ErrorSubject, response: ChatResponse): LlmError {
  const tokens = response.usage?.completionTokens;
  return new LlmError(
    "bad_response",
    `The model server at ${subject.baseUrl} returned an empty answer` +
      (tokens ? ` after generating ${tokens} tokens (a tool call it could not parse)` : "") +
      `. Ask again, or use a model with better tool support (e.g. ${toolCapableModels}).`,
  );
}
