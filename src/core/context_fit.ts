/**
 * The context budget as a guarantee: no request the loop sends is larger than the context the
 * server will use (`ChatModel.promptLimit`: `llm.max_context_tokens`, or what the server loaded).
 * The oldest history turns are left out first; a tool result too long for the room left is cut
 * with a line telling the model how much it sees; a request that still cannot fit is refused in
 * one line. Every step is a warning of the run: nothing is cut silently, by Radar or the server.
 *
 * Token counts are conservative estimates (no tokenizer is bundled).
 */
import type { ChatMessage, ChatModel, PromptLimit } from "./chat_model.ts";
import { RadarError } from "./errors.ts";

/**
 * Estimates tokens for a text: one token per 3.5 characters, rounded up.
 * BPE tokenizers of the models Radar targets average about 4 characters per token on
 * English and JSON, so this over-estimates, which is the safe side for budgets.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** Estimates tokens of any JSON-serialisable value as sent on the wire. */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value));
}

/** A request that cannot fit the model's context even without history: refused, never cut. */
export class ContextTooSmallError extends RadarError {}

/**
 * The request being fitted: `messages[0]` the system prompt, `[1, historyEnd)` the replayed
 * history, `historyEnd` the user's message, then the run's own answers and tool results.
 */
export interface FittedRequest {
  messages: ChatMessage[];
  historyEnd: number;
}

/** Estimated prompt tokens of messages plus tool schemas, as the loop tells the adapter. */
export function requestTokens(messages: readonly ChatMessage[], toolTokens: number): number {
  return estimateJsonTokens(messages) + toolTokens;
}

/** How the window is named in lines: "4096 tokens, llm.max_context_tokens". */
export function windowName(limit: PromptLimit): string {
  return `${limit.window} tokens, ${limit.source}`;
}

/**
 * Leaves out the oldest history turns (a user message and what followed it) until the request
 * plus `extra` tokens fits `limit`; returns how many messages were left out.
 */
export function dropHistory(
  request: FittedRequest,
  toolTokens: number,
  limit: number,
  extra = 0,
): number {
  let dropped = 0;
  while (
    request.historyEnd > 1 && requestTokens(request.messages, toolTokens) + extra > limit
  ) {
    let end = 2;
    while (end < request.historyEnd && request.messages[end].role !== "user") end++;
    request.messages.splice(1, end - 1);
    request.historyEnd -= end - 1;
    dropped += end - 1;
  }
  return dropped;
}

/** The line a run's warnings get when history was left out. */
function droppedLine(count: number, limit: PromptLimit): string {
  return `left out the ${count} oldest message(s) of the conversation to fit the model's ` +
    `context (${windowName(limit)})`;
}

/**
 * Before a model request: fits it to the limit by leaving out history; throws
 * `ContextTooSmallError` (one line) when even that is not enough.
 */
export async function fitRequest(
  model: ChatModel,
  request: FittedRequest,
  toolTokens: number,
  warnings: string[],
  signal?: AbortSignal,
): Promise<void> {
  const needed = requestTokens(request.messages, toolTokens);
  const limit = await model.promptLimit?.(needed, signal);
  if (!limit || needed <= limit.tokens) return;
  const dropped = dropHistory(request, toolTokens, limit.tokens);
  if (dropped) warnings.push(droppedLine(dropped, limit));
  const left = requestTokens(request.messages, toolTokens);
  if (left > limit.tokens) throw new ContextTooSmallError(refusal(left, toolTokens, limit));
}

/** The one line of a refused request. */
export function refusal(needed: number, toolTokens: number, limit: PromptLimit): string {
  return `This request needs about ${needed} tokens (tool schemas ${toolTokens}), but the ` +
    `model's context (${windowName(limit)}) leaves room for ${limit.tokens} beside the ` +
    `answer: shorten the message, lower llm.tool_budget_tokens, or give the model more ` +
    `context (llm.max_context_tokens, OLLAMA_CONTEXT_LENGTH). Nothing was sent.`;
}

/** Results shorter than this are left out whole rather than cut to a stub. */
const smallestCut = 200;

/**
 * A tool result for the model, fitted to the room the request has left: history first, then
 * the result itself, cut with a line saying how much of it is shown. `wrap` turns plain text
 * into the message the model sees (untrusted markers).
 */
export async function fitToolResult(
  model: ChatModel,
  request: FittedRequest,
  toolTokens: number,
  result: { text: string; toolName: string; wrap: (text: string) => ChatMessage },
  warnings: string[],
  signal?: AbortSignal,
): Promise<ChatMessage> {
  const whole = result.wrap(result.text);
  const extra = estimateJsonTokens([whole]);
  const limit = await model.promptLimit?.(
    requestTokens(request.messages, toolTokens) + extra,
    signal,
  );
  if (!limit || requestTokens(request.messages, toolTokens) + extra <= limit.tokens) return whole;
  const dropped = dropHistory(request, toolTokens, limit.tokens, extra);
  if (dropped) warnings.push(droppedLine(dropped, limit));
  const used = requestTokens(request.messages, toolTokens);
  if (used + extra <= limit.tokens) return whole;
  const total = result.text.length;
  const frame = estimateJsonTokens([result.wrap("")]) +
    estimateJsonTokens(cutLine(total, total)) + 2;
  const cut = cutToRoom(result.text, limit.tokens - used - frame);
  warnings.push(
    `cut the result of ${result.toolName} to fit the model's context (${windowName(limit)}): ` +
      `${cut.shown} of ${total} characters sent`,
  );
  return result.wrap(cut.text);
}

function cutLine(shown: number, total: number): string {
  return `\n[Radar cut this result to fit the model's context: the first ${shown} of ${total} ` +
    `characters are shown. Ask for a smaller part (a line range, a page) if you need more.]`;
}

function leftOutLine(total: number): string {
  return `[Radar left this result out (${total} characters): the model's context is full. ` +
    `Answer with what you have, or ask for less.]`;
}

/**
 * `text` within `roomTokens` as the estimate counts it (JSON-escaped characters / 3.5): its
 * beginning and a line saying how much is shown, or a line saying it was left out.
 */
export function cutToRoom(text: string, roomTokens: number): { text: string; shown: number } {
  const roomChars = Math.floor(roomTokens * 3.5);
  const leftOut = { text: leftOutLine(text.length), shown: 0 };
  if (roomChars < smallestCut) return leftOut;
  let keep = Math.min(text.length, roomChars);
  // JSON escaping (newlines, quotes) makes text longer on the wire: shrink until it fits.
  while (keep > 0 && JSON.stringify(text.slice(0, keep)).length - 2 > roomChars) {
    keep -= Math.max(1, JSON.stringify(text.slice(0, keep)).length - 2 - roomChars);
  }
  if (keep < smallestCut) return leftOut;
  return { text: text.slice(0, keep) + cutLine(keep, text.length), shown: keep };
}
