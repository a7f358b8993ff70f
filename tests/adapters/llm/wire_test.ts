import assert from "node:assert/strict";
import { parseOllamaChat } from "../../../src/adapters/llm/ollama_wire.ts";
import { parseOpenAiChat } from "../../../src/adapters/llm/openai_wire.ts";
import { toChatResponse } from "../../../src/adapters/llm/response_parts.ts";
import { classifyHttpError, errorMessageOf } from "../../../src/adapters/llm/http_errors.ts";
import { fixture } from "../../fakes/fake_llm_server.ts";

const offered = new Set([
  "get_weather",
  "get_current_weather",
  "query_web_search",
  "code_interpreter",
  "LLM_Tool_RAG",
  "add_two_numbers",
  "search",
  "read_file",
]);

function openAi(name: string) {
  const parsed = parseOpenAiChat(fixture(name));
  return { parsed, response: toChatResponse(parsed.message, offered) };
}

function ollama(name: string) {
  const parsed = parseOllamaChat(fixture(name));
  return { parsed, response: toChatResponse(parsed.message, offered) };
}

Deno.test("OpenAI-compatible tool calls from every server parse to name + JSON text arguments", () => {
  const cases: Array<[string, number]> = [
    ["ollama_v1_chat_tool_calls.synth.json", 1],
    ["ollama_v1_chat_parallel_tool_calls.synth.json", 2],
    ["ollama_v1_chat_reasoning_tool_call.synth.json", 1],
    ["ollama_v1_chat_length_with_tool_call.synth.json", 1],
    ["llamacpp_chat_tool_calls.synth.json", 1],
    ["llamacpp_chat_tool_calls_2026.synth.json", 1],
    ["vllm_chat_parallel_tool_calls.observed.json", 2],
    ["vllm_chat_tool_call_llama31.observed.json", 1],
    ["vllm_chat_tool_call_v0231.observed.json", 1],
    ["lmstudio_chat_tool_call.observed.json", 1],
  ];
  for (const [name, count] of cases) {
    const { parsed, response } = openAi(name);
    assert.equal(parsed.empty, false, name);
    assert.equal(response.toolCalls.length, count, name);
    for (const call of response.toolCalls) {
      assert.ok(call.id, `${name}: every call has an id`);
      assert.ok(call.name, name);
      assert.equal(typeof JSON.parse(call.arguments), "object", name);
    }
  }
});

Deno.test("a tool turn is decided by tool calls, never finish_reason", () => {
  const { response } = openAi("ollama_v1_chat_length_with_tool_call.synth.json");
  assert.equal(response.finishReason, "length");
  assert.equal(response.toolCalls.length, 1);
  assert.ok(response.warnings?.some((warning) => /cut/.test(warning)));
  const plain = openAi("lmstudio_chat_text_after_tool.observed.json").response;
  assert.equal(plain.toolCalls.length, 0, "tool_calls: [] is a plain answer");
  assert.ok(plain.content.length > 0);
});

Deno.test("Ollama native tool calls: object arguments, ids optional, empty args and empty names kept", () => {
  for (
    const name of [
      "ollama_api_chat_tool_calls.docs.json",
      "ollama_api_chat_tool_calls_tokyo.docs.json",
      "ollama_api_chat_tool_calls_current.synth.json",
      "ollama_api_chat_tool_call_empty_args.observed.json",
    ]
  ) {
    const { response } = ollama(name);
    assert.ok(response.toolCalls.length >= 1, name);
    for (const call of response.toolCalls) {
      assert.match(call.id, /\S/, name);
      assert.equal(typeof JSON.parse(call.arguments), "object", name);
    }
  }
  const empty = ollama("ollama_api_chat_tool_call_empty_args.observed.json").response;
  assert.equal(empty.toolCalls[0].arguments, "{}");
  const unnamed = ollama("ollama_api_chat_stream_tool_call_empty_name.observed.json").response;
  assert.equal(
    unnamed.toolCalls[0].name,
    "",
    "an empty name reaches the registry, which lists the tools",
  );
  const current = ollama("ollama_api_chat_tool_calls_current.synth.json");
  assert.deepEqual(current.response.usage, { promptTokens: 169, completionTokens: 48 });
  assert.equal(current.response.durationMs, 3245);
  assert.equal(current.response.content, "", "thinking never leaks into content");
});

Deno.test("tool calls written as text are recovered only for offered tools", () => {
  const recovered: Array<[string, "openai" | "ollama", string]> = [
    ["ollama_v1_chat_toolcall_as_text_json.synth.json", "openai", "LLM_Tool_RAG"],
    ["ollama_v1_chat_toolcall_as_text_codefence_llama32.synth.json", "openai", "query_web_search"],
    ["ollama_v1_chat_toolcall_as_text_qwen_tag.synth.json", "openai", "get_weather"],
    ["ollama_v1_chat_toolcall_as_text_python_tag.synth.json", "openai", "get_weather"],
    ["ollama_api_chat_toolcall_as_text_qwen3.observed.json", "ollama", "LLM_Tool_RAG"],
    ["ollama_api_chat_toolcall_as_text_hermes.observed.json", "ollama", "code_interpreter"],
  ];
  for (const [name, format, tool] of recovered) {
    const { response } = format === "openai" ? openAi(name) : ollama(name);
    assert.equal(response.toolCalls.length, 1, name);
    assert.equal(response.toolCalls[0].name, tool, name);
    assert.equal(typeof JSON.parse(response.toolCalls[0].arguments), "object", name);
    assert.equal(response.content, "", name);
    assert.ok(response.warnings?.some((warning) => /recovered/.test(warning)), name);
  }
  const parsed = parseOpenAiChat(fixture("ollama_v1_chat_toolcall_as_text_qwen_tag.synth.json"));
  const notOffered = toChatResponse(parsed.message, new Set(["notify"]));
  assert.equal(notOffered.toolCalls.length, 0, "a name that was not offered stays text");
  assert.match(notOffered.content, /tool_call/);
});

Deno.test("zero-value and empty answers are recognised", () => {
  assert.equal(openAi("ollama_v1_chat_zero_value_200.observed.json").parsed.empty, true);
  const empty = openAi("ollama_v1_chat_empty_after_failed_toolparse.synth.json");
  assert.equal(empty.parsed.empty, false);
  assert.equal(empty.response.content, "");
  assert.equal(empty.response.toolCalls.length, 0);
  assert.ok((empty.response.usage?.completionTokens ?? 0) > 0);
  assert.equal(ollama("ollama_api_chat_load.docs.json").response.content, "");
});

Deno.test("errors: every body shape gives its message; status first, then text", () => {
  const subject = {
    baseUrl: "http://localhost:11434",
    model: "gemma3:4b",
    provider: "ollama" as const,
  };
  const expect: Array<[string, number, string, number]> = [
    ["ollama_api_error_model_not_found.synth.json", 404, "model_not_found", 0],
    ["ollama_api_error_model_not_found_try_pulling.synth.json", 404, "model_not_found", 0],
    ["ollama_v1_error_model_not_found.pre018.observed.json", 404, "model_not_found", 0],
    ["ollama_v1_error_model_not_found.v018plus.synth.json", 404, "model_not_found", 0],
    ["ollama_api_error_no_tools.observed.json", 400, "tools_unsupported", 0],
    ["ollama_v1_error_no_tools.pre018.observed.json", 400, "tools_unsupported", 0],
    ["ollama_v1_error_no_tools.v018plus.synth.json", 400, "tools_unsupported", 0],
    ["vllm_error_auto_tool_choice.pre0101.observed.json", 400, "tools_unsupported", 0],
    ["vllm_error_context_length.v0101plus.observed.json", 400, "context_exceeded", 0],
    ["llamacpp_error_exceed_context.observed.json", 400, "context_exceeded", 0],
    ["llamacpp_error_exceed_context_new.observed.json", 400, "context_exceeded", 0],
    ["ollama_v1_error_server_busy.synth.json", 503, "server_error", 3],
    ["llamacpp_error_loading_model_503.observed.json", 503, "server_error", 3],
    ["ollama_api_error_runner_stopped.synth.json", 500, "server_error", 3],
    ["ollama_api_error_load_timeout.observed.json", 500, "server_error", 3],
    ["ollama_v1_error_toolparse_500.synth.json", 500, "server_error", 1],
    ["ollama_v1_error_empty_messages.synth.json", 400, "bad_request", 0],
    ["ollama_v1_error_model_required.observed.json", 400, "bad_request", 0],
  ];
  for (const [name, status, kind, retries] of expect) {
    const text = JSON.stringify(fixture(name));
    const { error, maxRetries } = classifyHttpError(status, text, subject);
    assert.equal(error.kind, kind, name);
    assert.equal(maxRetries, retries, name);
    assert.ok(error.message.includes(errorMessageOf(text)), `${name} quotes the server`);
  }
  const pull = classifyHttpError(
    404,
    JSON.stringify(fixture("ollama_api_error_model_not_found.synth.json")),
    subject,
  );
  assert.match(pull.error.message, /ollama pull gemma3:4b/);
  const tools = classifyHttpError(
    400,
    JSON.stringify(fixture("ollama_api_error_no_tools.observed.json")),
    subject,
  );
  assert.match(tools.error.message, /qwen/);
  const page = classifyHttpError(404, "404 page not found", subject);
  assert.equal(page.error.kind, "bad_request");
  assert.match(page.error.message, /llm\.base_url/);
  assert.equal(
    errorMessageOf("<html><body><h1>502 Bad Gateway</h1></body></html>"),
    "502 Bad Gateway",
  );
});
