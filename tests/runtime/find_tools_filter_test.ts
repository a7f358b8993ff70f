/**
 * A tool that a filter_tools rule hides stays hidden when the model asks find_tools for it: tools
 * offered later in a run pass the same filters (before, find_tools offered a denylisted tool and
 * the model could call it). Real runtime, config rules from radar.yaml, real HTTP to the fake
 * model server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

Deno.test("find_tools cannot offer a tool a filter_tools rule hides", async () => {
  const server = FakeLlmServer.start();
  const folder = Deno.makeTempDirSync({ prefix: "radar-find-tools-filter-" });
  const config = join(folder, "radar-test.yaml");
  Deno.writeTextFileSync(
    config,
    `llm:
  retries: 0
  tool_budget_tokens: 600
plugins:
  enabled: false
hooks:
  rules:
    - name: no_weather
      type: denylist
      tools: [weather]
`,
  );
  const radar = openRadar({
    env: {
      HOME: folder,
      RADAR_CONFIG: config,
      RADAR_DATA_DIR: join(folder, "data"),
      RADAR_LLM_BASE_URL: server.url,
    },
    cwd: folder,
    logLevel: "error",
  });
  try {
    server.reply(
      ollamaToolCall("find_tools", { need: "weather forecast" }),
      ollamaToolCall("weather", { location: "Lyon" }),
      ollamaText("I cannot check the weather."),
    );
    const id = radar.conversations.createConversation("chat", "t", radar.clock.now());
    const result = await runAgent(radar.agent(), {
      conversationId: id,
      kind: "chat",
      userMessage: "zzz",
      interactive: false,
    });
    assert.ok(result.offeredTools.includes("find_tools"), result.offeredTools.join());
    const [find, weather] = result.toolExecutions;
    assert.equal(find.result.outcome, "ok");
    assert.match(weather.result.text, /^Unknown tool "weather"/);
    for (const request of server.chatRequests) {
      const tools = (request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? [];
      assert.ok(!tools.some((tool) => tool.function.name === "weather"), "never sent");
    }
  } finally {
    radar.close();
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});
