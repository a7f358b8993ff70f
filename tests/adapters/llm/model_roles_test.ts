import assert from "node:assert/strict";
import { createChatModel, createRoleModel } from "../../../src/adapters/llm/create_chat_model.ts";
import type { ModelStatusWithFallback } from "../../../src/adapters/llm/fallback_chat_model.ts";
import { roleConfig } from "../../../src/adapters/llm/model_roles.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import type { ChatRequest } from "../../../src/core/chat_model.ts";
import { LlmError } from "../../../src/core/errors.ts";
import type { Logger } from "../../../src/core/ports.ts";
import { FakeLlmServer, fixtureReply, ollamaText } from "../../fakes/fake_llm_server.ts";

const request: ChatRequest = {
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  temperature: 0,
};

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => lines.push({ level: "info", message }),
    warn: (message) => lines.push({ level: "warn", message }),
    error: (message) => lines.push({ level: "error", message }),
  };
  return { logger, lines };
}

function llmWith(overrides: Record<string, unknown>, fallback: Record<string, string> = {}) {
  const llm = { ...defaultConfig().llm, ...overrides };
  return {
    ...llm,
    models: { ...llm.models, fallback: { ...llm.models.fallback, ...fallback } },
  };
}

async function deadUrl(): Promise<string> {
  const server = FakeLlmServer.start();
  const url = server.url;
  await server.close();
  return url;
}

Deno.test("roles inherit from the main model; a key never follows to another server", () => {
  const llm = defaultConfig().llm;
  llm.base_url = "http://gpu-box.lan:11434";
  llm.api_key = "main-secret";
  llm.models.fast.model = "qwen2.5:3b";
  llm.models.fallback = {
    provider: "",
    base_url: "http://localhost:11434",
    model: "qwen2.5:7b",
    api_key: "",
  };
  const fast = roleConfig(llm, "fast")!;
  assert.deepEqual([fast.base_url, fast.model, fast.api_key], [
    "http://gpu-box.lan:11434",
    "qwen2.5:3b",
    "main-secret",
  ]);
  const fallback = roleConfig(llm, "fallback")!;
  assert.deepEqual([fallback.base_url, fallback.model, fallback.api_key], [
    "http://localhost:11434",
    "qwen2.5:7b",
    "",
  ]);
  assert.equal(roleConfig(llm, "vision"), undefined);
  assert.equal(roleConfig(llm, "main")!.model, llm.model, "llm.model stays the main model");
  llm.models.main.model = "llama3.1:8b";
  assert.equal(roleConfig(llm, "main")!.model, "llama3.1:8b");
  assert.equal(roleConfig(llm, "fast")!.base_url, "http://gpu-box.lan:11434");
});

Deno.test("the main server is dead: the fallback answers, one warning names both", async () => {
  const main = await deadUrl();
  const fallback = FakeLlmServer.start().reply(
    ollamaText("from the fallback"),
    ollamaText("again"),
  );
  let now = 1_000_000;
  const { logger, lines } = recordingLogger();
  try {
    const model = createChatModel(
      llmWith({ base_url: main, model: "qwen2.5:14b" }, {
        base_url: fallback.url,
        model: "qwen2.5:3b",
      }),
      { fetch, logger, sleep: () => Promise.resolve(), now: () => now },
    );
    assert.equal((await model.chat(request)).content, "from the fallback");
    const warnings = lines.filter((line) => line.level === "warn").map((line) => line.message);
    const switched = warnings.filter((line) => /Using the fallback/.test(line));
    assert.equal(switched.length, 1, warnings.join("\n"));
    assert.match(switched[0], new RegExp(`Cannot reach the model server at ${main}`));
    assert.match(
      switched[0],
      new RegExp(
        `Using the fallback qwen2\\.5:3b at ${fallback.url} \\(llm\\.models\\.fallback\\)`,
      ),
    );
    assert.match(switched[0], new RegExp(`qwen2\\.5:14b at ${main} is tried again in 5 min`));
    assert.equal(model.model, "qwen2.5:3b", "the model in use is the fallback");
    now += 60_000;
    const before = lines.length;
    assert.equal((await model.chat(request)).content, "again");
    assert.equal(lines.length, before, "within the pause: straight to the fallback, no new line");
  } finally {
    await fallback.close();
  }
});

Deno.test("after the pause the main server is tried again, and its return is said once", async () => {
  const main = FakeLlmServer.start().reply(
    fixtureReply("ollama_v1_error_server_busy.synth.json", 503),
    fixtureReply("ollama_v1_error_server_busy.synth.json", 503),
    ollamaText("main is back"),
  );
  const fallback = FakeLlmServer.start().reply(ollamaText("fallback"));
  let now = 0;
  const { logger, lines } = recordingLogger();
  try {
    const model = createChatModel(
      llmWith({ base_url: main.url }, { base_url: fallback.url, model: "small" }),
      { fetch, logger, sleep: () => Promise.resolve(), now: () => now },
    );
    assert.equal((await model.chat(request)).content, "fallback");
    assert.equal(main.chatRequests.length, 2, "one retry on the main server, not three");
    now += 5 * 60_000 + 1;
    assert.equal((await model.chat(request)).content, "main is back");
    assert.ok(lines.some((line) => line.level === "info" && /answers again/.test(line.message)));
  } finally {
    await main.close();
    await fallback.close();
  }
});

Deno.test("no fallback for answers that are the request's fault; both dead names both", async () => {
  const main = FakeLlmServer.start().reply(
    fixtureReply("ollama_api_error_model_not_found.synth.json", 404),
  );
  const { logger } = recordingLogger();
  try {
    const fallbackUrl = await deadUrl();
    const model = createChatModel(
      llmWith({ base_url: main.url }, { base_url: fallbackUrl, model: "small" }),
      { fetch, logger, sleep: () => Promise.resolve() },
    );
    const missing = await model.chat(request).catch((error) => error);
    assert.ok(missing instanceof LlmError);
    assert.equal(missing.kind, "model_not_found");
    const deadMain = await deadUrl();
    const both = createChatModel(
      llmWith({ base_url: deadMain }, { base_url: fallbackUrl, model: "small" }),
      { fetch, logger, sleep: () => Promise.resolve() },
    );
    const error = await both.chat(request).catch((caught) => caught);
    assert.ok(error instanceof LlmError);
    assert.match(
      error.message,
      new RegExp(
        `^Neither model answered\\. Main: Cannot reach the model server at ${deadMain}.*` +
          `Fallback: Cannot reach the model server at ${fallbackUrl}`,
      ),
    );
  } finally {
    await main.close();
  }
});

Deno.test("status shows both servers; fast and vision roles build only when set", async () => {
  const main = await deadUrl();
  const fallback = FakeLlmServer.start();
  const { logger } = recordingLogger();
  try {
    const llm = llmWith({ base_url: main }, { base_url: fallback.url, model: "qwen2.5:3b" });
    const status = await createChatModel(llm, {
      fetch,
      logger,
      sleep: () => Promise.resolve(),
    }).status() as ModelStatusWithFallback;
    assert.equal(status.reachable, false);
    assert.equal(status.fallback?.reachable, true);
    assert.equal(status.fallback?.model, "qwen2.5:3b");
    assert.match(status.problem ?? "", /the fallback qwen2\.5:3b at .* answers meanwhile/);
    const options = { fetch, logger, sleep: () => Promise.resolve() };
    assert.equal(createRoleModel(llm, "fast", options), undefined);
    llm.models.vision.model = "qwen2.5vl:7b";
    assert.equal(createRoleModel(llm, "vision", options)?.model, "qwen2.5vl:7b");
  } finally {
    await fallback.close();
  }
});
