/** The embedding model port: turns texts into vectors for tool ranking and semantic memory. */

/** Port: an embedding server (Ollama `/api/embed`, OpenAI-compatible `/v1/embeddings`). */
export interface EmbeddingModel {
  /** The embedding model's name (part of every cache key: vectors of two models never mix). */
  readonly model: string;
  /**
   * One vector per text, in order. Throws `LlmError` when the server is unreachable or answers
   * badly; callers fall back to keyword search and warn once.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/**
 * An embedding model as recall and tool ranking use it: while its server fails they fall back to
 * keywords, with one warning per failure streak and a retry after `retryAfterMs`.
 */
export interface EmbeddingWithBackoff {
  model: EmbeddingModel;
  /** Called once per outage with a readable line. */
  warn: (message: string) => void;
  /** Milliseconds clock (injected). */
  now: () => number;
  /** How long a failed server is left alone (default ten minutes). */
  retryAfterMs?: number;
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    dot += left[index] * right[index];
    leftNorm += left[index] * left[index];
    rightNorm += right[index] * right[index];
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
