/**
 * A tool that a filter_tools rule hides stays hidden when the model asks find_tools for it: tools
 * offered later in a run pass the same filters (before, find_tools offered a denylisted tool and
 * the model could call it). Real runtime, config rules from radar.yaml, real HTTP to the fake
 * model server.
 */
import assert from "node:assert/strict";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { chatTurn, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const yaml = `llm:
  retries: 0
  tool_budget_tokens: 600
plugins:
  enabled: false
hooks:
  rules:
    - name: no_weather
      type: denylist
      tools: [weather]
`;

Deno.test("find_tools cannot offer a tool a filter_tools rule hides", async () => {
  await withFakeLlmRadar(
    { prefix: "radar-find-tools-filter-", yaml },
    async (radar, { server }) => {
      server.reply(
        ollamaToolCall("find_tools", { need: "weather forecast" }),
        ollamaToolCall("weather", { location: "Lyon" }),
        ollamaText("I cannot check the weather."),
      );
      const { result } = await chatTurn(radar, "zzz");
      assert.ok(result.offeredTools.includes("find_tools"), result.offeredTools.join());
      const [find, weather] = result.toolExecutions;
      assert.equal(find.result.outcome, "ok");
      assert.match(weather.result.text, /^Unknown tool "weather"/);
      for (const request of server.chatRequests) {
        const tools = (request.body as { tools?: Array<{ function: { name: string } }> }).tools ??
          [];
        assert.ok(!tools.some((tool) => tool.function.name === "weather"), "never sent");
      }
    },
  );
});
