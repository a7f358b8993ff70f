/**
 * A post_memory_search plugin is a privacy filter: when it crashes (or answers nonsense) the
 * memories it was asked about are hidden — from `recall` (so from the model) and from
 * `radar memory list` — with a warning line and an audit row, never passed on unfiltered. An
 * observing hook of the same plugin that crashes (post_tool_call) stays fail-open: the tool call
 * goes on. Real plugin host, real runtime, real HTTP to the fake model server.
 */
import assert from "node:assert/strict";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { type FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { chatTurn, sentText, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const privateFact = "my therapist is Dr. Hollis on Tuesdays";

const guard = (body: string) => ({
  "manifest.yaml": `name: guard
version: 1.0.0
description: Keeps health facts private
trust_level: sandbox
capabilities: [hook]
hooks:
  - hook_point: post_memory_search
    function: hide_health
  - hook_point: post_tool_call
    function: observe
`,
  "tool.ts": `
export function hide_health(input: { results: Array<{ id: number; content: string }> }) {
  ${body}
}
export function observe() { throw new Error("observer crashed"); }
`,
});

async function withGuard(
  body: string,
  work: (radar: Radar, server: FakeLlmServer, logged: string[]) => Promise<void>,
) {
  await withFakeLlmRadar(
    { prefix: "radar-memory-filter-", logLevel: "warn", plugins: { guard: guard(body) } },
    async (radar, home) => {
      const at = radar.clock.now();
      radar.facts.addFact({ category: "learned_fact", content: privateFact }, at);
      radar.facts.addFact(
        { category: "user_preference", content: "my therapist parks on level 2" },
        at,
      );
      home.logged.length = 0;
      await work(radar, home.server, home.logged);
    },
  );
}

async function recallRun(radar: Radar, server: FakeLlmServer) {
  server.reply(ollamaToolCall("recall", { query: "therapist" }), ollamaText("Nothing found."));
  const { result } = await chatTurn(radar, "who is my therapist?");
  return result;
}

Deno.test("a memory filter plugin that works drops what it hides (the baseline)", async () => {
  await withGuard(
    `return { results: input.results.filter((hit) => !hit.content.includes("Hollis")) };`,
    async (radar, server) => {
      const result = await recallRun(radar, server);
      const text = result.toolExecutions[0].result.text;
      assert.match(text, /parks on level 2/);
      assert.ok(!text.includes("Hollis"));
    },
  );
});

Deno.test("a memory filter plugin that throws hides the results it was asked about", async () => {
  await withGuard(`throw new Error("filter crashed");`, async (radar, server, logged) => {
    const result = await recallRun(radar, server);
    const [execution] = result.toolExecutions;
    assert.equal(execution.result.outcome, "ok", "the post_tool_call observer failed open");
    assert.match(execution.result.text, /^No memories match "therapist"\./);
    const sent = sentText(server);
    assert.ok(sent.includes("No memories match"), "the model was told nothing matched");
    assert.ok(!sent.includes("Hollis"), "the model never saw the fact the filter exists to hide");

    const listed = await (await radar.agentStack()).memory.listFacts({ limit: 10 });
    assert.deepEqual(listed, [], "browsing hides them too");

    const hidden = logged.filter((line) =>
      /memory result\(s\) it was asked about are hidden/.test(line)
    );
    assert.equal(hidden.length, 2, `one warning line per hidden search:\n${logged.join("\n")}`);
    assert.match(hidden[0], /memory filter guard\.hide_health did not answer; the 2 memory/);
    assert.ok(logged.some((line) => /plugin:guard:hide_health error: .*filter crashed/.test(line)));
    const audited = radar.toolCalls.list({ limit: 20, failed: true })
      .filter((row) => row.tool === "hook:plugin post_memory_search hooks");
    assert.equal(audited.length, 2, "each hidden search leaves an audit row");
    assert.match(audited[0].result, /are hidden/);
  });
});

Deno.test("a memory filter plugin that answers nonsense hides the results too", async () => {
  await withGuard(`return { results: "all of them" };`, async (radar, server, logged) => {
    const result = await recallRun(radar, server);
    assert.match(result.toolExecutions[0].result.text, /^No memories match/);
    assert.ok(
      logged.some((line) =>
        /guard\.hide_health returned something other than \{results: \[\.\.\.\]\}; the 2 memory/
          .test(line)
      ),
      logged.join("\n"),
    );
  });
});
