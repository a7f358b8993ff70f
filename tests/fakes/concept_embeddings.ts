/**
 * A fake embedding model over a few "meanings": each meaning is a list of word stems, and a text's
 * vector has a 1 for every meaning one of its stems appears in (case-insensitive), then a small
 * constant so that no vector is all zeros. Records its calls; `failing` makes it unreachable.
 */
import type { EmbeddingModel } from "../../src/core/embedding_model.ts";
import { LlmError } from "../../src/core/errors.ts";

/** An embedding model whose dimensions are the given meanings. */
export class ConceptEmbeddings implements EmbeddingModel {
  readonly model = "concepts";
  /** The texts of every call, in order. */
  calls: string[][] = [];
  /** When true every call fails as an unreachable server would. */
  failing = false;

  constructor(private readonly meanings: string[][], private readonly floor: number) {}

  embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    if (this.failing) return Promise.reject(new LlmError("unreachable", "connection refused"));
    const has = (text: string, words: string[]) =>
      words.some((word) => text.toLowerCase().includes(word)) ? 1 : 0;
    return Promise.resolve(
      texts.map((text) => [...this.meanings.map((words) => has(text, words)), this.floor]),
    );
  }
}
