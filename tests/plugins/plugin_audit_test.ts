/**
 * Plugin tool calls that crash, time out or are refused by the sandbox reach the model as results
 * and leave audit rows with the right outcome; the loop carries on.
 */
import assert from "node:assert/strict";
import { runAgent } from "../../src/core/agent_loop.ts";
import { ScriptedChatModel, textResponse } from "../fakes/scripted_chat_model.ts";
import { agentDeps, installApproved, pluginFixture } from "./helpers.ts";

const broken = {
  "manifest.yaml": `name: broken
version: 1.0.0
description: Tools that fail in every way
trust_level: local
tools:
  - name: broken_spin
    description: Never returns
  - name: broken_crash
    description: Ends its own host
  - name: broken_peek
    description: Reads a file it was not granted
  - name: broken_ok
    description: Works
`,
  "tool.ts": `
export function broken_spin(): void { while (true) { /* spin */ } }
export function broken_crash(): void {
  const hoard: string[][] = [];
  while (true) hoard.push(new Array(1_000_000).fill("radar"));
}
export function broken_peek(): string { return Deno.readTextFileSync("/etc/hostname"); }
export function broken_ok(): string { return "fine"; }
`,
};

Deno.test("crashing, hanging and refused plugin tools are results and audit rows", async () => {
  // A small heap: the crash (out of memory ends the whole host) comes within the deadline.
  const fixture = pluginFixture({ call_timeout_seconds: 4, memory_mb: 48 });
  try {
    await installApproved(fixture, "broken", broken);
    const model = new ScriptedChatModel([
      {
        content: "",
        toolCalls: ["spin", "crash", "peek", "ok"].map((name, index) => ({
          id: `c${index}`,
          name: `broken_${name}`,
          arguments: "{}",
        })),
      },
      textResponse("carried on"),
    ]);
    const deps = agentDeps(fixture, model);
    const conversationId = deps.store.createConversation("ask", "t", fixture.clock.now());
    const result = await runAgent(deps, {
      conversationId,
      kind: "ask",
      userMessage: "go",
      interactive: false,
      toolNames: ["broken_spin", "broken_crash", "broken_peek", "broken_ok"],
    });
    assert.equal(result.answer, "carried on");
    const rows = fixture.toolCalls.list({ limit: 10 }).reverse();
    assert.deepEqual(rows.map((row) => [row.tool, row.outcome]), [
      ["broken_spin", "timeout"],
      ["broken_crash", "error"],
      ["broken_peek", "refused"],
      ["broken_ok", "ok"],
    ]);
    assert.match(rows[1].result, /plugin host ended/);
    assert.match(rows[2].result, /Requires read access/);
  } finally {
    await fixture.close();
  }
});
