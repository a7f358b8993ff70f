/**
 * Plugin hooks at the points beyond tool calls, through real plugin hosts and the real agent loop:
 * pre_agent_run blocks, filter_tools narrows what the model is sent, post_agent_run rewrites the
 * answer, post_memory_search may drop or reorder facts but not invent them.
 */
import assert from "node:assert/strict";
import { runAgent } from "../../src/core/agent_loop.ts";
import { Hooks } from "../../src/core/hooks.ts";
import { registerPluginHooks } from "../../src/plugins/plugin_hooks.ts";
import { ScriptedChatModel, textResponse } from "../fakes/scripted_chat_model.ts";
import { agentDeps, echoPlugin, installApproved as install, pluginFixture } from "./helpers.ts";

const shaper = {
  "manifest.yaml": `name: shaper
version: 1.0.0
description: Shapes runs
trust_level: sandbox
capabilities: [hook]
hooks:
  - hook_point: pre_agent_run
    function: gate
  - hook_point: filter_tools
    function: only_recall
  - hook_point: post_agent_run
    function: shout
  - hook_point: post_memory_search
    function: rerank
`,
  "tool.ts": `
export function gate(input: { user_message: string }) {
  if (input.user_message.includes("forbidden")) return { blocked: true, message: "not today" };
}
export function only_recall(input: { tools: string[] }) {
  return { tools: input.tools.filter((name) => name !== "echoer_echo").concat(["exec"]) };
}
export function shout(input: { response: string }) { return { response: input.response.toUpperCase() }; }
export function rerank(input: { results: Array<{ id: number }> }) {
  return { results: [...input.results.reverse(), { id: 999, category: "x", content: "invented" }] };
}
`,
};

Deno.test("plugin hooks at pre/post_agent_run, filter_tools and post_memory_search", async () => {
  const fixture = pluginFixture();
  try {
    await install(fixture, "echoer", echoPlugin());
    await install(fixture, "shaper", shaper);
    const hooks = new Hooks();
    registerPluginHooks(hooks, fixture.system.hooks);
    assert.deepEqual(
      hooks.list().filter((hook) => hook.source === "plugins:points").map((hook) => hook.point),
      ["pre_agent_run", "filter_tools", "post_memory_search", "post_agent_run"],
    );
    const model = new ScriptedChatModel([textResponse("done")]);
    const deps = { ...agentDeps(fixture, model), hooks };
    const conversationId = deps.store.createConversation("ask", "t", fixture.clock.now());
    const request = { conversationId, kind: "ask" as const, interactive: false };
    const blocked = await runAgent(deps, { ...request, userMessage: "do the forbidden thing" });
    assert.equal(blocked.answer, "Blocked by plugin shaper: not today");
    assert.equal(model.requests.length, 0);
    const result = await runAgent(deps, {
      ...request,
      userMessage: "echo",
      toolNames: ["echoer_echo"],
    });
    assert.equal(result.answer, "DONE");
    assert.deepEqual(model.requests[0].tools, [], "echoer_echo filtered out; exec not added");
    const hits = [
      { id: 1, category: "a", content: "one" },
      { id: 2, category: "a", content: "two" },
      { id: 1, category: "digest day", content: "three", kind: "digest" },
    ];
    assert.deepEqual(
      (await hooks.filterMemories("q", hits)).map((hit) => hit.content),
      ["three", "two", "one"],
      "hits sharing an id are matched back by kind",
    );
  } finally {
    await fixture.close();
  }
});
