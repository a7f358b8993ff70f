/** Conservative token estimates (no tokenizer is bundled). */

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
