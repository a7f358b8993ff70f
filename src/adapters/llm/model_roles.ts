/** The `llm.models` roles resolved to full LLM settings (pure). */
import { type LlmConfig, trimBaseUrl } from "./settings.ts";

/** The roles a model can play. */
export type ModelRoleName = "main" | "fast" | "vision" | "fallback";

/**
 * The settings of `role`: the main model is `llm.base_url`/`llm.model` unless `llm.models.main`
 * names a model; the others exist only when their `model` is set, and inherit what they leave
 * empty from the main model. A role on another server never inherits the main API key.
 */
export function roleConfig(llm: LlmConfig, role: ModelRoleName): LlmConfig | undefined {
  const main = llm.models.main.model.trim() ? withRole(llm, llm.models.main) : llm;
  if (role === "main") return main;
  const entry = llm.models[role];
  return entry.model.trim() ? withRole(main, entry) : undefined;
}

/** The kind of server `llm` talks to: its `provider`, else openai for a base URL ending in /v1. */
export function providerOf(llm: LlmConfig): "ollama" | "openai" {
  return llm.provider || (/\/v1\/?$/.test(llm.base_url) ? "openai" : "ollama");
}

/** `qwen2.5:14b at http://gpu-box.lan:11434`, for messages. */
export function describeModel(llm: LlmConfig): string {
  return `${llm.model} at ${trimBaseUrl(llm.base_url)}`;
}

function withRole(base: LlmConfig, entry: LlmConfig["models"]["main"]): LlmConfig {
  const otherServer = entry.base_url !== "" &&
    trimBaseUrl(entry.base_url) !== trimBaseUrl(base.base_url);
  return {
    ...base,
    base_url: entry.base_url || base.base_url,
    provider: entry.provider || (otherServer ? "" : base.provider),
    model: entry.model.trim(),
    api_key: entry.api_key || (otherServer ? "" : base.api_key),
  };
}
