import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/loader.ts";
import { ConfigError } from "../../src/core/errors.ts";

const file = "/h/.config/radar/radar.yaml";

function load(env: Record<string, string>, yaml = "llm:\n  models:\n    fast: {model: tiny}\n") {
  return loadConfig({
    env: { HOME: "/h", ...env },
    cwd: "/work",
    readTextFile: (path) => path === file ? yaml : undefined,
  });
}

Deno.test("RADAR_LLM_<ROLE>_* and RADAR_LLM_EMBEDDING_* override the model roles", () => {
  const { config } = load({
    RADAR_LLM_FAST_MODEL: "qwen2.5:3b",
    RADAR_LLM_VISION_MODEL: "qwen2.5vl:7b",
    RADAR_LLM_VISION_BASE_URL: "http://gpu-box.lan:11434",
    RADAR_LLM_FALLBACK_MODEL: "qwen2.5:7b",
    RADAR_LLM_FALLBACK_BASE_URL: "http://mac-mini.lan:8080/v1",
    RADAR_LLM_FALLBACK_PROVIDER: "openai",
    RADAR_LLM_FALLBACK_API_KEY: "k-123",
    RADAR_LLM_EMBEDDING_MODEL: "nomic-embed-text",
    RADAR_LLM_EMBEDDING_BASE_URL: "http://embed.lan:11434",
  });
  const { models } = config.llm;
  assert.equal(models.fast.model, "qwen2.5:3b", "the environment wins over the file");
  assert.equal(models.vision.model, "qwen2.5vl:7b");
  assert.equal(models.vision.base_url, "http://gpu-box.lan:11434");
  assert.deepEqual(models.fallback, {
    model: "qwen2.5:7b",
    base_url: "http://mac-mini.lan:8080/v1",
    provider: "openai",
    api_key: "k-123",
  });
  assert.equal(config.llm.embedding_model, "nomic-embed-text");
  assert.equal(config.llm.embedding_base_url, "http://embed.lan:11434");
  assert.equal(load({}).config.llm.models.fast.model, "tiny", "unset: the file's value");
});

Deno.test("a bad role value from the environment is a config error naming the key", () => {
  assert.throws(
    () => load({ RADAR_LLM_FAST_BASE_URL: "ftp://nope" }),
    (error) => error instanceof ConfigError && /llm\.models\.fast\.base_url/.test(error.message),
  );
});
