/** Builds the chat model adapter for the configured provider. (Placeholder until the LLM adapters land.) */
import type { RadarConfig } from "../../config/schema.ts";
import type { ChatModel } from "../../core/chat_model.ts";
import { LlmError } from "../../core/errors.ts";
import type { Logger } from "../../core/ports.ts";

/** What the LLM adapters need from the outside. */
export interface ChatModelOptions {
  fetch: typeof fetch;
  logger: Logger;
  /** Waits between retries; injectable so tests never wait on wall-clock time. */
  sleep: (milliseconds: number) => Promise<void>;
}

/** Creates the chat model for `llm` config. */
export function createChatModel(llm: RadarConfig["llm"], _options: ChatModelOptions): ChatModel {
  return {
    provider: llm.provider,
    model: llm.model,
    chat: () => Promise.reject(new LlmError("bad_request", "LLM adapter not built yet")),
    status: () =>
      Promise.resolve({
        baseUrl: llm.base_url,
        provider: llm.provider,
        model: llm.model,
        reachable: false,
        problem: "LLM adapter not built yet",
      }),
  };
}
