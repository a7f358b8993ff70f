/**
 * `radar ask` as a real subprocess (the binary's exact flags) over real HTTP to the fake LLM
 * server, in both wire formats, with a real SQLite file; and its failures as one readable line.
 */
import { writeUserConfig } from "../helpers/radar_process.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import {
  FakeLlmServer,
  fixtureReply,
  ollamaText,
  ollamaToolCall,
  openAiText,
} from "../fakes/fake_llm_server.ts";
import { runRadar } from "../helpers/radar_process.ts";

type Body = {
  stream: boolean;
  tools: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string; tool_name?: string; tool_call_id?: string }>;
  options?: { temperature: number; num_ctx: number };
  temperature?: number;
};

function home(config = "llm:\n  retries: 0\n"): string {
  const folder = Deno.makeTempDirSync({ prefix: "radar-ask-" });
  writeUserConfig(folder, config);
  return folder;
}

function storedMessages(folder: string) {
  const db = openDatabase(join(folder, "data", "radar.db"));
  try {
    const store = new SqliteConversationStore(db);
    const conversation = store.latest("ask");
    assert.ok(conversation, "the ask conversation is stored");
    return store.messages(conversation.id);
  } finally {
    db.close();
  }
}

Deno.test("radar ask over Ollama's native API: tool call, tool result, answer, all stored", async () => {
  const folder = home();
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("remember", {
      content: "The user's dentist is Dr. Hale",
      category: "learned_fact",
    }),
    ollamaText("Noted: your dentist is Dr. Hale."),
  );
  try {
    const run = await runRadar(folder, ["ask", "Remember that my dentist is Dr. Hale"], {
      env: { RADAR_LLM_BASE_URL: server.url },
    });
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "Noted: your dentist is Dr. Hale.\n");
    const [first, second] = server.chatRequests.map((request) => request.body as Body);
    assert.equal(server.chatRequests[0].path, "/api/chat");
    assert.equal(first.stream, false);
    assert.equal(typeof first.options?.temperature, "number");
    assert.ok((first.options?.num_ctx ?? 0) >= 4096);
    assert.ok(first.tools.some((tool) => tool.function.name === "remember"));
    assert.ok(
      !first.messages[0].content.includes('"parameters"'),
      "tool definitions never go into prompt text",
    );
    const toolMessage = second.messages.find((message) => message.role === "tool");
    assert.equal(toolMessage?.tool_name, "remember");
    const stored = storedMessages(folder);
    assert.deepEqual(stored.map((message) => message.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    assert.equal(stored[1].toolCalls?.[0].name, "remember");
    const facts = await runRadar(folder, ["memory", "search", "dentist"]);
    assert.match(facts.stdout, /Dr\. Hale/);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar ask over /v1: a tool call printed as text is recovered and run, --json records it", async () => {
  const folder = home();
  const docs = join(folder, "Documents");
  Deno.mkdirSync(docs);
  Deno.writeTextFileSync(join(docs, "taxes-2026.pdf"), "x");
  const asText = fixtureReply("ollama_v1_chat_toolcall_as_text_qwen_tag.synth.json");
  const body = asText.body as { choices: Array<{ message: { content: string } }> };
  body.choices[0].message.content = `<tool_call>\n${
    JSON.stringify({ name: "list_directory", arguments: { path: docs } })
  }\n</tool_call>`;
  const server = FakeLlmServer.start().reply(asText, openAiText("You have taxes-2026.pdf."));
  try {
    const run = await runRadar(folder, ["ask", "--json", "What files are in", docs], {
      env: { RADAR_LLM_BASE_URL: `${server.url}/v1` },
    });
    assert.equal(run.code, 0, run.stderr);
    const record = JSON.parse(run.stdout);
    assert.equal(record.answer, "You have taxes-2026.pdf.");
    assert.equal(record.toolCalls[0].name, "list_directory");
    assert.equal(record.toolCalls[0].outcome, "ok");
    assert.ok(record.warnings.some((warning: string) => /recovered/.test(warning)));
    assert.equal(server.chatRequests[0].path, "/v1/chat/completions");
    const second = server.chatRequests[1].body as Body;
    assert.equal(second.stream, false);
    const toolMessage = second.messages.find((message) => message.role === "tool");
    assert.match(toolMessage?.content ?? "", /taxes-2026\.pdf/);
    assert.ok(toolMessage?.tool_call_id);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("an unknown tool and invalid arguments come back to the model as errors it can act on", async () => {
  const folder = home();
  const broken = ollamaToolCall("remember", {});
  (broken.body as { message: { tool_calls: Array<{ function: { arguments: unknown } }> } })
    .message.tool_calls[0].function.arguments = '{"content": ';
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("get_weather", { city: "Paris" }),
    broken,
    ollamaText("Sorry, I could not do that."),
  );
  try {
    const run = await runRadar(folder, ["ask", "hello"], {
      env: { RADAR_LLM_BASE_URL: server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    const results = server.chatRequests.slice(1).map((request) =>
      (request.body as Body).messages.findLast((message) => message.role === "tool")?.content ?? ""
    );
    assert.match(results[0], /Unknown tool "get_weather"\. Available tools: .*remember/);
    assert.match(results[1], /JSON|arguments/i);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("failures are one readable line with exit 1: dead server, missing model, no tool support", async () => {
  const folder = home();
  const dead = FakeLlmServer.start();
  const deadUrl = dead.url;
  await dead.close();
  const server = FakeLlmServer.start().reply(
    fixtureReply("ollama_api_error_model_not_found.synth.json", 404),
    fixtureReply("ollama_api_error_no_tools.observed.json", 400),
  );
  try {
    const cases: Array<[string, RegExp]> = [
      [
        deadUrl,
        /Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+: connection refused.*ollama serve/,
      ],
      [server.url, /ollama pull/],
      [server.url, /does not support tool calling/],
    ];
    for (const [url, expected] of cases) {
      const run = await runRadar(folder, ["ask", "hi"], { env: { RADAR_LLM_BASE_URL: url } });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stdout, "");
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], expected);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
    }
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar status reports the server, the model and tool support from /api/show", async () => {
  const folder = home();
  const server = FakeLlmServer.start();
  try {
    const run = await runRadar(folder, ["status"], { env: { RADAR_LLM_BASE_URL: server.url } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /reachable: yes/);
    assert.match(run.stdout, /model present: yes/);
    assert.match(run.stdout, /tools supported: yes/);
    assert.match(run.stdout, /context length: 40960/);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});
