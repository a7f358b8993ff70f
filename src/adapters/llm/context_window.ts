/** Sizing Ollama's `num_ctx` for the prompt actually sent, and spotting silent truncation (pure). */

/** Tokens kept free for the model's answer. */
const outputReserveTokens = 1024;

/** Smallest window Radar asks for (Ollama's historical default). */
export const minimumContextTokens = 4096;

/** The chosen window and whether the prompt still does not fit. */
export interface ContextChoice {
  numCtx: number;
  /** True when even the largest allowed window is smaller than prompt + reserve. */
  overflow: boolean;
  needed: number;
}

/**
 * Picks `num_ctx`: a power of two ≥ prompt × 1.2 + output reserve (so the window changes rarely,
 * because every change reloads the model), capped by the model's context length and
 * `llm.max_context_tokens` (0 = no cap).
 */
export function chooseContextWindow(
  estimatedPromptTokens: number,
  modelContextTokens: number | undefined,
  maxContextTokens: number,
): ContextChoice {
  const needed = Math.ceil(estimatedPromptTokens * 1.2) + outputReserveTokens;
  let numCtx = minimumContextTokens;
  while (numCtx < needed) numCtx *= 2;
  const caps = [modelContextTokens, maxContextTokens || undefined].filter(
    (cap): cap is number => typeof cap === "number" && cap > 0,
  );
  if (caps.length) numCtx = Math.min(numCtx, ...caps);
  return { numCtx, overflow: needed > numCtx, needed };
}

/**
 * The most estimated prompt tokens a window of `windowTokens` holds with the answer's room kept:
 * the inverse of `chooseContextWindow`'s need, so a prompt this size never overflows the window.
 */
export function promptRoom(windowTokens: number): number {
  return Math.max(0, Math.floor((windowTokens - outputReserveTokens) / 1.2));
}

/**
 * True when the server's prompt token count shows Ollama cut the prompt: it equals the window
 * (runner truncation) or window/2 + 2 (context shift), while Radar sent more than that.
 */
export function truncationSuspected(
  promptEvalCount: number | undefined,
  estimatedPromptTokens: number,
  numCtx: number,
): boolean {
  if (promptEvalCount === undefined || estimatedPromptTokens <= promptEvalCount) return false;
  const atWindow = promptEvalCount >= numCtx - 16 && promptEvalCount <= numCtx;
  const atHalf = Math.abs(promptEvalCount - (numCtx / 2 + 2)) <= 2;
  return atWindow || atHalf;
}
