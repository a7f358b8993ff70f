// deno-lint-ignore-file no-explicit-any -- wire bodies are inspected loosely in assertions
import assert from "node:assert/strict";
import { createChatModel } from "../../../src/adapters/llm/create_chat_model.ts";
import { defaultConfig } from "../../../src/config/schema.ts";
import type { ChatRequest } from "../../../src/core/chat_model.ts";
import { silentLogger } from "../../../src/core/ports.ts";
import { failure, recordingSleep } from "./llm_test_helpers.ts";
import {
  FakeLlmServer,
  fixture,
  fixtureReply,
  ollamaText,
  ollamaToolCall,
  openAiText,
} from "../../fakes/fake_llm_server.ts";

const request: ChatRequest = {
  messages: [
    { role: "system", content: "You are Radar." },
    { role: "user", content: "weather in Paris?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "get_weather", arguments: "{not json" }],
    },
    { role: "tool", content: "sunny", toolCallId: "call_1", toolName: "get_weather" },
  ],
  tools: [{
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  }],
  temperature: 0.2,
  estimatedPromptTokens: 5000,
};

function model(server: FakeLlmServer, overrides: Record<string, unknown> = {}) {
  const { sleeps, sleep } = recordingSleep();
  const llm = { ...defaultConfig().llm, base_url: server.url, ...overrides };
  const chatModel = createChatModel(llm, {
    fetch,
    logger: silentLogger,
    sleep,
  });
  return { chatModel, sleeps };
}

Deno.test("ollama adapter: stream:false, tools parameter, explicit temperature, num_ctx sized to the prompt", async () => {
  const server = FakeLlmServer.start().reply(ollamaToolCall("get_weather", { city: "Paris" }));
  try {
    const { chatModel } = model(server);
    const response = await chatModel.chat(request);
    assert.equal(response.toolCalls[0].name, "get_weather");
    assert.deepEqual(JSON.parse(response.toolCalls[0].arguments), { city: "Paris" });
    const sent = server.chatRequests[0];
    assert.equal(sent.path, "/api/chat");
    const body = sent.body as Record<string, any>;
    assert.equal(body.stream, false);
    assert.equal(body.options.temperature, 0.2);
    assert.equal(body.options.num_ctx, 8192, "5000 tokens × 1.2 + 1024 reserve → 8192");
    assert.equal(body.tools[0].function.name, "get_weather");
    assert.ok(
      !JSON.stringify(body.messages).includes("Weather for a city"),
      "no tools in prompt text",
    );
    assert.deepEqual(
      body.messages[2].tool_calls[0].function.arguments,
      {},
      "broken history args → {}",
    );
    assert.equal(body.messages[3].tool_name, "get_weather");
    assert.equal(body.keep_alive, "30m");
  } finally {
    await server.close();
  }
});

Deno.test("ollama adapter: num_ctx is capped by the model's context length from /api/show", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("hi"));
  const show = fixture("ollama_api_show_tools.synth.json") as Record<string, any>;
  show.model_info["qwen3.context_length"] = 4096;
  server.show = { body: show };
  try {
    const response = await model(server).chatModel.chat(request);
    assert.equal((server.chatRequests[0].body as any).options.num_ctx, 4096);
    assert.ok(
      response.warnings?.some((warning) => /larger than the model's context/.test(warning)),
    );
  } finally {
    await server.close();
  }
});

Deno.test("ollama adapter: a prompt that fits the minimum window skips /api/show; a bigger one asks once", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("one"), ollamaText("two"), ollamaText("3"));
  try {
    const { chatModel } = model(server);
    await chatModel.chat({ ...request, estimatedPromptTokens: 500 });
    assert.equal((server.chatRequests[0].body as any).options.num_ctx, 4096);
    assert.ok(!server.requests.some((sent) => sent.path === "/api/show"), "no round trip");
    await chatModel.chat(request);
    await chatModel.chat(request);
    assert.equal(server.requests.filter((sent) => sent.path === "/api/show").length, 1);
    assert.equal((server.chatRequests[1].body as any).options.num_ctx, 8192);
  } finally {
    await server.close();
  }
});

Deno.test("ollama adapter: warns when prompt_eval_count shows silent truncation", async () => {
  const reply = ollamaText("an answer that lost its system prompt");
  (reply.body as Record<string, any>).prompt_eval_count = 4098; // num_ctx/2 + 2
  const server = FakeLlmServer.start().reply(reply);
  try {
    const response = await model(server).chatModel.chat(request);
    assert.ok(
      response.warnings?.some((warning) => /truncated/.test(warning)),
      String(response.warnings),
    );
  } finally {
    await server.close();
  }
});

Deno.test("openai adapter: /v1 base, string arguments, bearer key, tool_call_id in history", async () => {
  const server = FakeLlmServer.start().reply(
    fixtureReply("vllm_chat_parallel_tool_calls.observed.json"),
  );
  try {
    const { chatModel } = model(server, {
      base_url: `${server.url}/v1`,
      provider: "",
      api_key: "sk-test",
    });
    assert.equal(chatModel.provider, "openai");
    const response = await chatModel.chat(request);
    assert.equal(response.toolCalls.length, 2);
    const sent = server.chatRequests[0];
    assert.equal(sent.path, "/v1/chat/completions");
    assert.equal(sent.headers.get("authorization"), "Bearer sk-test");
    const body = sent.body as Record<string, any>;
    assert.equal(body.stream, false);
    assert.equal(body.temperature, 0.2);
    assert.equal(body.tools[0].type, "function");
    assert.equal(body.messages[2].tool_calls[0].function.arguments, "{}");
    assert.equal(body.messages[3].tool_call_id, "call_1");
  } finally {
    await server.close();
  }
});

Deno.test("503 busy and 500 runner crash are retried with backoff, then succeed", async () => {
  const server = FakeLlmServer.start().reply(
    fixtureReply("ollama_v1_error_server_busy.synth.json", 503),
    fixtureReply("ollama_api_error_runner_stopped.synth.json", 500),
    ollamaText("recovered"),
  );
  try {
    const { chatModel, sleeps } = model(server);
    const response = await chatModel.chat(request);
    assert.equal(response.content, "recovered");
    assert.equal(server.chatRequests.length, 3);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[1] > sleeps[0], `backoff grows: ${sleeps}`);
  } finally {
    await server.close();
  }
});

Deno.test("400 does not support tools and 404 model not found are never retried", async () => {
  const server = FakeLlmServer.start().reply(
    fixtureReply("ollama_api_error_no_tools.observed.json", 400),
    fixtureReply("ollama_api_error_model_not_found.synth.json", 404),
  );
  try {
    const { chatModel, sleeps } = model(server, { model: "gemma3:4b" });
    const tools = await failure(chatModel.chat(request));
    assert.equal(tools.kind, "tools_unsupported");
    assert.match(tools.message, /does not support tool calling.*qwen/);
    const missing = await failure(chatModel.chat(request));
    assert.equal(missing.kind, "model_not_found");
    assert.match(missing.message, /ollama pull gemma3:4b/);
    assert.equal(server.chatRequests.length, 2);
    assert.deepEqual(sleeps, []);
  } finally {
    await server.close();
  }
});

Deno.test("zero-value 200 and empty-after-failed-parse are retried once, then reported", async () => {
  const server = FakeLlmServer.start().reply(
    fixtureReply("ollama_v1_chat_zero_value_200.observed.json"),
    openAiText("second try worked"),
    fixtureReply("ollama_v1_chat_empty_after_failed_toolparse.synth.json"),
    fixtureReply("ollama_v1_chat_empty_after_failed_toolparse.synth.json"),
    fixtureReply("ollama_v1_chat_empty_after_failed_toolparse.synth.json"),
  );
  try {
    const { chatModel, sleeps } = model(server, { base_url: `${server.url}/v1` });
    assert.equal((await chatModel.chat(request)).content, "second try worked");
    const empty = await failure(chatModel.chat(request));
    assert.equal(empty.kind, "bad_response");
    assert.match(empty.message, /empty answer after generating 40 tokens/);
    assert.equal(server.chatRequests.length, 4, "one retry each, not the full budget");
    assert.equal(sleeps.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("tool-call parse 500 is retried once; a 200 with a midstream error body is an error", async () => {
  const server = FakeLlmServer.start().reply(
    fixtureReply("ollama_v1_error_toolparse_500.synth.json", 500),
    fixtureReply("ollama_v1_error_toolparse_500.synth.json", 500),
    { body: { error: "an error was encountered while running the model: unexpected EOF" } },
    ollamaText("fine"),
  );
  try {
    const { chatModel } = model(server);
    const parse = await failure(chatModel.chat(request));
    assert.match(parse.message, /could not parse the model's tool call/);
    assert.equal((await chatModel.chat(request)).content, "fine");
    assert.equal(server.chatRequests.length, 4);
  } finally {
    await server.close();
  }
});

Deno.test("a dead server: retried with backoff, then one line naming the URL and `ollama serve`", async () => {
  const server = FakeLlmServer.start();
  const url = server.url;
  await server.close();
  const { sleeps, sleep } = recordingSleep();
  const chatModel = createChatModel({ ...defaultConfig().llm, base_url: url, retries: 2 }, {
    fetch,
    logger: silentLogger,
    sleep,
  });
  const error = await failure(chatModel.chat(request));
  assert.equal(error.kind, "unreachable");
  assert.match(
    error.message,
    new RegExp(`Cannot reach the model server at ${url}: connection refused`),
  );
  assert.match(error.message, /ollama serve/);
  assert.equal(sleeps.length, 2);
  const status = await chatModel.status();
  assert.equal(status.reachable, false);
  assert.match(status.problem ?? "", /connection refused/);
});

Deno.test("a response slower than llm.response_timeout_seconds is a timeout, not a hang", async () => {
  const release = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (incoming) => {
      await incoming.text();
      await release.promise;
      return new Response("{}");
    },
  );
  try {
    const chatModel = createChatModel({
      ...defaultConfig().llm,
      base_url: `http://127.0.0.1:${server.addr.port}/v1`,
      response_timeout_seconds: 0.2,
    }, { fetch, logger: silentLogger, sleep: () => Promise.resolve() });
    const error = await failure(chatModel.chat(request));
    assert.equal(error.kind, "timeout");
    assert.match(error.message, /llm\.response_timeout_seconds/);
  } finally {
    release.resolve();
    await server.shutdown();
  }
});

Deno.test("cancelling a request aborts it", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("late"));
  try {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(model(server).chatModel.chat(request, controller.signal));
    assert.equal(error.kind, "cancelled");
  } finally {
    await server.close();
  }
});

Deno.test("status: /api/show says present, tools-capable and context length; 404 says pull", async () => {
  const server = FakeLlmServer.start();
  try {
    const present = await model(server).chatModel.status();
    assert.deepEqual(
      [present.reachable, present.modelPresent, present.supportsTools, present.contextLength],
      [true, true, true, 40960],
    );
    server.show = fixtureReply("ollama_api_show.docs.json");
    const noTools = await model(server).chatModel.status();
    assert.equal(noTools.supportsTools, false);
    assert.match(noTools.problem ?? "", /does not support tool calling/);
    server.show = fixtureReply("ollama_api_error_model_not_found.synth.json", 404);
    const missing = await model(server, { model: "llama3.2" }).chatModel.status();
    assert.equal(missing.modelPresent, false);
    assert.match(missing.problem ?? "", /ollama pull llama3\.2/);
  } finally {
    await server.close();
  }
});

Deno.test("status over /v1: models list (data:null = none) and llama-server /props tools flag", async () => {
  const server = FakeLlmServer.start();
  try {
    const ids = (fixture("ollama_v1_models.observed.json") as { data: Array<{ id: string }> }).data;
    const listed = await model(server, { base_url: `${server.url}/v1`, model: ids[0].id }).chatModel
      .status();
    assert.equal(listed.modelPresent, true);
    assert.equal(listed.supportsTools, undefined, "unknown when the server has no /props");
    server.models = fixtureReply("ollama_v1_models_empty.test.json");
    server.props = { body: { chat_template_caps: { supports_tool_calls: true } } };
    const none = await model(server, { base_url: `${server.url}/v1` }).chatModel.status();
    assert.equal(none.modelPresent, false);
    assert.match(none.problem ?? "", /lists no models/);
    assert.equal(none.supportsTools, true);
  } finally {
    await server.close();
  }
});
