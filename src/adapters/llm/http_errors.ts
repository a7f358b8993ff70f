/** Turns an LLM server's error status and body into one readable `LlmError` (pure). */
import { LlmError } from "../../core/errors.ts";

/** What the error refers to, for the message. */
export interface ErrorSubject {
  /** The server's base URL as configured. */
  baseUrl: string;
  model: string;
  provider: "ollama" | "openai";
}

/** An error plus how many times it is worth retrying. */
export interface ClassifiedError {
  error: LlmError;
  /** 0 = never retry; otherwise the most retries this kind of failure deserves. */
  maxRetries: number;
}

/** Models known to support native tool calling in Ollama, for the "does not support tools" hint. */
export const toolCapableModels = "qwen3, qwen2.5, llama3.1, llama3.2, mistral-nemo";

/** Reads the message out of every error body shape (native, OpenAI nested, vLLM flat, text). */
export function errorMessageOf(bodyText: string): string {
  const text = bodyText.trim();
  try {
    const body = JSON.parse(text);
    if (typeof body?.error === "string") return body.error;
    if (typeof body?.error?.message === "string") return body.error.message;
    if (typeof body?.message === "string") return body.message;
    if (typeof body?.detail === "string") return body.detail;
  } catch { /* not JSON */ }
  return text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 200);
}

/** Classifies a non-2xx answer. Branches on status first, then message text, never on `type`. */
export function classifyHttpError(
  status: number,
  bodyText: string,
  subject: ErrorSubject,
): ClassifiedError {
  const said = errorMessageOf(bodyText);
  const server = `${subject.baseUrl} answered ${status}: ${said || "(empty body)"}`;
  const lower = said.toLowerCase();
  const fail = (kind: LlmError["kind"], message: string, maxRetries = 0) => ({
    error: new LlmError(kind, message, maxRetries > 0),
    maxRetries,
  });
  if (/does not support tools/.test(lower)) {
    return fail(
      "tools_unsupported",
      `Model ${subject.model} does not support tool calling (${server}). ` +
        `Set llm.model to one that does, e.g. ${toolCapableModels}.`,
    );
  }
  if (/enable-auto-tool-choice|tool-call-parser/.test(lower)) {
    return fail(
      "tools_unsupported",
      `The server was started without tool calling (${server}). ` +
        `Start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>.`,
    );
  }
  if (status === 404 && /model/.test(lower)) {
    const fix = subject.provider === "ollama" || /11434/.test(subject.baseUrl)
      ? `run \`ollama pull ${subject.model}\``
      : "check llm.model against the server's model list (`radar status`)";
    return fail("model_not_found", `Model ${subject.model} is not available: ${fix} (${server}).`);
  }
  if (status === 404) {
    return fail(
      "bad_request",
      `${server}. Is llm.base_url right? Ollama's native API lives at http://HOST:11434, ` +
        `OpenAI-compatible servers at http://HOST:PORT/v1.`,
    );
  }
  if (/context|exceed|too long|maximum.*length/.test(lower) && status === 400) {
    return fail(
      "context_exceeded",
      `The prompt does not fit the model's context (${server}). ` +
        `Shorten the input or raise the server's context size.`,
    );
  }
  if (status === 401 || status === 403) {
    return fail("bad_request", `The server refused the request (${server}). Check llm.api_key.`);
  }
  if (/error parsing tool call|invalid tool call arguments/.test(lower)) {
    return fail("server_error", `The server could not parse the model's tool call (${server}).`, 1);
  }
  if (status >= 500 || status === 429 || status === 408) {
    return fail("server_error", `The model server failed (${server}).`, 3);
  }
  return fail("bad_request", `The model server rejected the request (${server}).`);
}
