/**
 * With no plugin enabled a run does not load the plugin system (src/runtime/plugins_for_run.ts),
 * yet it gets what the loaded system gives: the same `create_tool`, and the plugins, tools and
 * prompt variables of a system something loads later (the daemon's watcher, `radar plugin`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { Tool } from "../../src/core/tool.ts";
import { createToolTool } from "../../src/plugins/create_tool.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import type { PluginSystem } from "../../src/plugins/plugin_system.ts";
import type { FirstUse } from "../../src/runtime/first_use.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { ScriptedChatModel, textResponse } from "../fakes/scripted_chat_model.ts";

async function openIn(dir: string, config: string) {
  Deno.writeTextFileSync(join(dir, "radar.yaml"), config);
  const radar = await openRadar({
    configPath: join(dir, "radar.yaml"),
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock: new ManualClock(new Date("2026-11-23T10:00:00Z")),
    logLevel: "error",
    logWriters: [],
  });
  return { radar, plugins: radar.plugins as FirstUse<PluginSystem | undefined> };
}

/** What the model is offered of a tool, and how Radar treats its calls. */
function offered(tool: Tool | undefined) {
  assert.ok(tool);
  const { name, description, keywords, parameters, effect, resultIsData } = tool;
  return JSON.stringify({ name, description, keywords, parameters, effect, resultIsData });
}

Deno.test("with no plugin enabled a run leaves the plugin system unloaded and offers the same create_tool", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-plugins-for-run-" });
  const { radar, plugins } = await openIn(dir, "plugins:\n  allow_llm_generated: true\n");
  try {
    const { registry } = await radar.agentStack();
    assert.equal(plugins.current(), undefined, "the plugin system is not loaded");
    const standIn = registry.get("create_tool");
    const names = registry.list().map((tool) => tool.name);
    assert.equal(names.at(-1), "create_tool", "offered last, as the system registers it");
    assert.equal(offered(standIn), offered(createToolTool({} as never)));
    assert.ok(Deno.statSync(join(dir, "data", "plugins", "enabled")).isDirectory);
    // Once loaded (the first create_tool call, the watcher), the system's own tool takes its place.
    await plugins();
    assert.notEqual(registry.get("create_tool"), standIn);
    assert.equal(offered(registry.get("create_tool")), offered(standIn));
    assert.deepEqual(registry.list().map((tool) => tool.name), names);
  } finally {
    radar.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a plugin enabled after a run began joins it when the system loads: its tool and prompt variable", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-plugins-for-run-" });
  const { radar, plugins } = await openIn(dir, 'radar:\n  timezone: "UTC"\n');
  try {
    const { registry } = await radar.agentStack();
    assert.equal(plugins.current(), undefined);
    assert.equal(registry.get("create_tool"), undefined, "allow_llm_generated is off");
    const source = join(dir, "namer");
    writeFolder(source, {
      "manifest.yaml": `name: namer
version: 1.0.0
description: Names the machine
trust_level: sandbox
capabilities: [tool, prompt_variables]
tools:
  - name: namer_name
    description: Name the machine
    parameters: {}
prompt_variables:
  - name: machine
`,
      "tool.ts": `export function namer_name(): string { return "test box"; }
export function machine(): string { return "test box"; }
`,
    });
    const system = (await plugins())!;
    system.manager.install(source);
    await system.api.approve("namer");
    assert.ok(registry.get("namer_name"), "its tool is registered");
    const model = new ScriptedChatModel([textResponse("ok")]);
    await runAgent({ ...await radar.agent(), model }, {
      conversationId: radar.conversations.createConversation("ask", "t", new Date()),
      kind: "ask",
      userMessage: "hello",
      interactive: false,
    });
    assert.match(model.requests[0].messages[0].content, /- namer\.machine: "test box"/);
  } finally {
    await plugins.current()?.stop();
    radar.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
