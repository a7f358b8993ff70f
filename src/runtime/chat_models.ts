/**
 * The configured roles' chat models (main, fast, vision) as the runtime holds them: each one's
 * client (the LLM adapter modules) is loaded on its first call, so a daemon that asks no model
 * anything never loads them. Until then a model names its server kind and model from config,
 * as the client will.
 */
import type { ChatModel } from "../core/chat_model.ts";
import type { ChatModelOptions, LlmConfig } from "../adapters/llm/settings.ts";
import { type ModelRoleName, providerOf, roleConfig } from "../adapters/llm/model_roles.ts";
import { onFirstUse } from "./first_use.ts";

/** A chat model whose client `load` builds on the first call; `names` are said until then. */
export function chatModelOnFirstUse(
  names: { provider: string; model: string },
  load: () => Promise<ChatModel>,
): ChatModel {
  const client = onFirstUse(load);
  return {
    get provider() {
      return client.current()?.provider ?? names.provider;
    },
    get model() {
      return client.current()?.model ?? names.model;
    },
    chat: async (request, signal) => await (await client()).chat(request, signal),
    status: async (signal) => await (await client()).status(signal),
    promptLimit: async (needed, signal) => await (await client()).promptLimit?.(needed, signal),
  };
}

/** The model of `role` (undefined when the role is not configured), its client loaded on first use. */
export function roleModel(
  llm: LlmConfig,
  role: ModelRoleName,
  options: ChatModelOptions,
): ChatModel | undefined {
  const settings = roleConfig(llm, role);
  if (!settings) return undefined;
  return chatModelOnFirstUse(
    { provider: providerOf(settings), model: settings.model },
    async () => {
      const { createChatModel, createRoleModel } = await createChatModelModule();
      return role === "main" ? createChatModel(llm, options) : createRoleModel(llm, role, options)!;
    },
  );
}

/** The chat model clients' module, loaded by a model's first use. */
function createChatModelModule(): Promise<typeof import("../adapters/llm/create_chat_model.ts")> {
  return import(new URL("../adapters/llm/create_chat_model.ts", import.meta.url).href);
}
