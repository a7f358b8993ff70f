/** The composition root hands plugin hooks and prompt variables to every agent run. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";

Deno.test("await openRadar() wires plugin hooks and prompt variables into runAgent", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-runtime-plugins-" });
  Deno.writeTextFileSync(join(dir, "radar.yaml"), 'radar:\n  timezone: "UTC"\n');
  const runtime = await openRadar({
    configPath: join(dir, "radar.yaml"),
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock: new ManualClock(new Date("2026-11-23T10:00:00Z")),
    logLevel: "error",
    logWriters: [],
  });
  try {
    const source = join(dir, "lock_down");
    writeFolder(source, {
      "manifest.yaml": `name: lock_down
version: 1.0.0
description: Blocks every write and names the machine
trust_level: sandbox
capabilities: [hook, prompt_variables]
hooks:
  - hook_point: pre_tool_call
    function: no_writes
prompt_variables:
  - name: machine
`,
      "tool.ts": `export function no_writes(input: { tool_name: string }) {
  return input.tool_name === "write_file" ? { blocked: true, message: "read-only day" } : undefined;
}
export function machine(): string { return "test box"; }
`,
    });
    const plugins = (await runtime.plugins())!;
    plugins.manager.install(source);
    await plugins.api.approve("lock_down");
    const model = new ScriptedChatModel([
      toolCallResponse("write_file", { path: join(dir, "x.txt"), content: "x" }),
      textResponse("ok"),
    ]);
    const deps = { ...await runtime.agent(), model };
    const conversationId = runtime.conversations.createConversation("ask", "t", new Date());
    const result = await runAgent(deps, {
      conversationId,
      kind: "ask",
      userMessage: "write",
      interactive: false,
      toolNames: ["write_file"],
    });
    assert.deepEqual(result.toolExecutions[0].result, {
      outcome: "refused",
      text: "Blocked by plugin lock_down: read-only day",
    });
    assert.throws(() => Deno.statSync(join(dir, "x.txt")));
    assert.match(model.requests[0].messages[0].content, /- lock_down\.machine: "test box"/);
  } finally {
    await (await runtime.plugins())?.stop();
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
