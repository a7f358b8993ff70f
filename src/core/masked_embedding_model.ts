/**
 * An embedding model whose inputs are masked first: the embedding server may be remote like the
 * chat model, and what it embeds (facts, recall queries, summaries, digests, the user's message
 * for tool ranking) may hold a secret. Every text is masked with the secrets known at the call
 * (a password read after start included), so this one wrapper covers every embed call.
 */
import type { EmbeddingModel } from "./embedding_model.ts";
import { redactText } from "./redact.ts";

/** Wraps `model`: each text goes out through `redactText` with `secrets()` of that moment. */
export function maskedEmbeddingModel(
  model: EmbeddingModel,
  secrets: () => readonly string[],
): EmbeddingModel {
  return {
    model: model.model,
    embed: (texts, signal) => {
      const known = secrets();
      return model.embed(texts.map((text) => redactText(text, known)), signal);
    },
  };
}
