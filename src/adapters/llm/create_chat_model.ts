/** Builds the chat model adapter for the configured provider. */
import type { ChatModel } from "../../core/chat_model.ts";
import { OllamaChatModel } from "./ollama_chat_model.ts";
import { OpenAiChatModel } from "./openai_chat_model.ts";
import type { ChatModelOptions, LlmConfig } from "./settings.ts";
import { tcpProbe } from "./transport.ts";

export type { ChatModelOptions } from "./settings.ts";

/** Creates the chat model for `llm` config (`provider` empty: a base URL ending in /v1 means openai). */
export function createChatModel(llm: LlmConfig, options: ChatModelOptions): ChatModel {
  const probe = options.probe ?? tcpProbe;
  const provider = llm.provider || (/\/v1\/?$/.test(llm.base_url) ? "openai" : "ollama");
  return provider === "openai"
    ? new OpenAiChatModel({ ...llm, provider }, options, probe)
    : new OllamaChatModel({ ...llm, provider }, options, probe);
}
