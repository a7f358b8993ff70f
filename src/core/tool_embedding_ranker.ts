/**
 * Ranks tools by embedding similarity to a message. Tool vectors are cached (by embedding model
 * and a hash of the embedded text, so a changed description is embedded again); only the message
 * is embedded per request. A failing embedding server means keyword ranking: one warning, and a
 * retry after `retryAfterMs`.
 */
import { cosineSimilarity, type EmbeddingWithBackoff } from "./embedding_model.ts";
import type { Tool } from "./tool.ts";
import type { ToolRanker } from "./tool_relevance.ts";
import { sha256Hex } from "./bytes.ts";

/** Port: stored tool-description vectors (SQLite in production). */
export interface EmbeddingCache {
  get(model: string, textHash: string): number[] | undefined;
  put(model: string, textHash: string, vector: number[]): void;
}

/** What the ranker is built from. */
interface EmbeddingRankerOptions extends EmbeddingWithBackoff {
  cache: EmbeddingCache;
}

/** The text embedded for a tool: its name in words, description and keywords. */
function toolEmbeddingText(tool: Tool): string {
  const keywords = tool.keywords?.length ? ` (${tool.keywords.join(", ")})` : "";
  return `${tool.name.replaceAll("_", " ")}: ${tool.description}${keywords}`;
}

/** A ToolRanker over an embedding model, degrading to "no scores" when the server fails. */
export class EmbeddingToolRanker implements ToolRanker {
  #options: EmbeddingRankerOptions;
  #failedAt: number | undefined;

  constructor(options: EmbeddingRankerOptions) {
    this.#options = options;
  }

  /** Similarity of every tool to the message, or undefined while the server is failing. */
  async scores(
    message: string,
    tools: readonly Tool[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, number> | undefined> {
    const { model, cache, now } = this.#options;
    const retryAfter = this.#options.retryAfterMs ?? 10 * 60_000;
    if (this.#failedAt !== undefined && now() - this.#failedAt < retryAfter) return undefined;
    try {
      const hashes = await Promise.all(tools.map((tool) => sha256Hex(toolEmbeddingText(tool))));
      const vectors = hashes.map((hash) => cache.get(model.model, hash));
      const missing = tools.flatMap((_tool, index) => vectors[index] ? [] : [index]);
      const texts = [message, ...missing.map((index) => toolEmbeddingText(tools[index]))];
      const embedded = await model.embed(texts, signal);
      if (embedded.length !== texts.length) {
        throw new Error(`expected ${texts.length} vectors, got ${embedded.length}`);
      }
      missing.forEach((toolIndex, position) => {
        vectors[toolIndex] = embedded[position + 1];
        cache.put(model.model, hashes[toolIndex], embedded[position + 1]);
      });
      this.#failedAt = undefined;
      return new Map(
        tools.map((tool, index) => [tool.name, cosineSimilarity(embedded[0], vectors[index]!)]),
      );
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (this.#failedAt === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#options.warn(
          `Embedding model "${model.model}" failed (${reason}); ranking tools by keywords only.`,
        );
      }
      this.#failedAt = now();
      return undefined;
    }
  }
}
