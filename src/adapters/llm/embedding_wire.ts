/** Request bodies and answer readers of the two embedding endpoints (pure). */

/** Ollama `POST /api/embed` body. */
export function ollamaEmbedBody(model: string, texts: string[], keepAlive: string): unknown {
  return { model, input: texts, keep_alive: keepAlive };
}

/** OpenAI-compatible `POST /v1/embeddings` body. */
export function openAiEmbedBody(model: string, texts: string[]): unknown {
  return { model, input: texts, encoding_format: "float" };
}

/** The vectors of an Ollama answer (`embeddings: number[][]`), or undefined when malformed. */
export function ollamaVectors(json: unknown): unknown[] | undefined {
  const embeddings = (json as { embeddings?: unknown })?.embeddings;
  return Array.isArray(embeddings) ? embeddings : undefined;
}

/** The vectors of an OpenAI answer (`data[].embedding`, put in `index` order). */
export function openAiVectors(json: unknown): unknown[] | undefined {
  const data = (json as { data?: unknown })?.data;
  if (!Array.isArray(data)) return undefined;
  const items = data.map((item, position) => ({
    index: typeof item?.index === "number" ? item.index : position,
    embedding: item?.embedding,
  }));
  return items.sort((left, right) => left.index - right.index).map((item) => item.embedding);
}

/**
 * Checks the vectors: one per text, all of numbers, all of one length. Returns them, or a
 * description of what is wrong.
 */
export function checkVectors(
  vectors: unknown[] | undefined,
  count: number,
): { vectors: number[][] } | { problem: string } {
  if (!vectors) return { problem: "an answer without embeddings" };
  if (vectors.length !== count) {
    return { problem: `${vectors.length} vectors for ${count} texts` };
  }
  const length = Array.isArray(vectors[0]) ? vectors[0].length : 0;
  for (const vector of vectors) {
    if (
      !Array.isArray(vector) || vector.length !== length || length === 0 ||
      !vector.every((value) => typeof value === "number" && Number.isFinite(value))
    ) {
      return { problem: "vectors that are empty, of different lengths or not all numbers" };
    }
  }
  return { vectors: vectors as number[][] };
}
