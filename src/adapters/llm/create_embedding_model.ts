/** Builds the embedding model from the `llm:` config, or none when `llm.embedding_model` is empty. */
import type { EmbeddingModel } from "../../core/embedding_model.ts";
import { HttpEmbeddingModel } from "./embedding_client.ts";
import type { ChatModelOptions, LlmConfig } from "./settings.ts";
import { tcpProbe } from "./transport.ts";

/**
 * The embedding model, on `llm.embedding_base_url` or else the chat server. Its wire format: the
 * chat provider on the chat server; on an own URL, OpenAI-compatible when it ends in /v1.
 */
export function createEmbeddingModel(
  llm: LlmConfig,
  options: ChatModelOptions,
): EmbeddingModel | undefined {
  if (!llm.embedding_model.trim()) return undefined;
  const own = llm.embedding_base_url;
  const baseUrl = own || llm.base_url;
  const provider = own
    ? (/\/v1\/?$/.test(own) ? "openai" : "ollama")
    : llm.provider || (/\/v1\/?$/.test(llm.base_url) ? "openai" : "ollama");
  return new HttpEmbeddingModel(
    { provider, baseUrl, model: llm.embedding_model.trim() },
    llm,
    options,
    options.probe ?? tcpProbe,
  );
}
