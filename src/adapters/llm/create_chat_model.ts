/** Builds the chat model adapters for the configured providers and model roles. */
import type { ChatModel } from "../../core/chat_model.ts";
import { FallbackChatModel } from "./fallback_chat_model.ts";
import { describeModel, type ModelRoleName, providerOf, roleConfig } from "./model_roles.ts";
import { OllamaChatModel } from "./ollama_chat_model.ts";
import { OpenAiChatModel } from "./openai_chat_model.ts";
import type { ChatModelOptions, LlmConfig } from "./settings.ts";
import { tcpProbe } from "./transport.ts";

/**
 * Creates the main chat model for `llm` config (the composition root calls this): `llm.base_url`
 * and `llm.model`, or `llm.models.main`; wrapped with `llm.models.fallback` when one is set (the
 * main server then gets at most one retry before the fallback answers).
 */
export function createChatModel(llm: LlmConfig, options: ChatModelOptions): ChatModel {
  const main = roleConfig(llm, "main")!;
  const fallback = roleConfig(llm, "fallback");
  if (!fallback) return createServerModel(main, options);
  return new FallbackChatModel(
    {
      model: createServerModel({ ...main, retries: Math.min(main.retries, 1) }, options),
      name: describeModel(main),
    },
    { model: createServerModel(fallback, options), name: describeModel(fallback) },
    { logger: options.logger, now: options.now },
  );
}

/**
 * The model of another role (`fast`, `vision`), or undefined when the role is not configured.
 * The fast model never retries: a failed triage falls through to the main model at once.
 */
export function createRoleModel(
  llm: LlmConfig,
  role: Exclude<ModelRoleName, "main">,
  options: ChatModelOptions,
): ChatModel | undefined {
  const config = roleConfig(llm, role);
  if (!config) return undefined;
  return createServerModel(role === "fast" ? { ...config, retries: 0 } : config, options);
}

/** One server's adapter (`provider` empty: a base URL ending in /v1 means openai). */
function createServerModel(llm: LlmConfig, options: ChatModelOptions): ChatModel {
  const probe = options.probe ?? tcpProbe;
  const provider = providerOf(llm);
  return provider === "openai"
    ? new OpenAiChatModel({ ...llm, provider }, options, probe)
    : new OllamaChatModel({ ...llm, provider }, options, probe);
}
