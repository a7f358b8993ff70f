/**
 * What `radar ask` and `radar chat` run on (the runtime) applies every rule of a tool call: a
 * destructive command asks in chat, plugins' pre_tool_call hooks block and post_tool_call hooks
 * annotate, enabled plugin tools are offered and run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

function setup() {
  const home = Deno.makeTempDirSync({ prefix: "radar-rules-" });
  const server = FakeLlmServer.start();
  const config = join(home, "radar-test.yaml");
  Deno.mkdirSync(join(home, "work"));
  Deno.writeTextFileSync(config, 'tools:\n  exec:\n    writable_roots: ["~/work"]\n');
  const env = {
    HOME: home,
    RADAR_CONFIG: config,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: server.url,
  };
  const open = () => openRadar({ env, cwd: home, logLevel: "error" });
  const turn = async (
    session: Radar,
    message: string,
    confirm?: (question: string) => Promise<boolean>,
  ) => {
    const conversationId = session.conversations.createConversation("chat", message, new Date());
    return await runAgent(session.agent(), {
      conversationId,
      kind: "chat",
      userMessage: message,
      interactive: confirm !== undefined,
      confirm,
    });
  };
  /** Installs and approves a plugin through a full runtime. */
  const installPlugin = async (name: string, files: Record<string, string>) => {
    const runtime = openRadar({ env, cwd: home, logLevel: "error" });
    try {
      writeFolder(join(home, "sources", name), files);
      runtime.plugins!.manager.install(join(home, "sources", name));
      await runtime.plugins!.api.approve(name);
    } finally {
      await runtime.plugins?.stop();
      runtime.close();
    }
  };
  const cleanup = async () => {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  };
  return { home, server, open, turn, installPlugin, cleanup };
}

Deno.test("runtime: a destructive command in chat asks first", async () => {
  const { home, server, open, turn, cleanup } = setup();
  try {
    const victim = join(home, "work/old");
    Deno.mkdirSync(victim);
    const session = open();
    try {
      const questions: string[] = [];
      server.reply(ollamaToolCall("exec", { command: "rm -rf ~/work/old" }), ollamaText("Kept."));
      const result = await turn(session, "run rm on my old folder", (question) => {
        questions.push(question);
        return Promise.resolve(false);
      });
      const execution = result.toolExecutions[0];
      assert.equal(questions.length, 1, execution.result.text);
      assert.match(
        questions[0],
        /(may change files in ~\/work|No sandbox is active).*:\n {2}rm -rf ~\/work\/old/,
      );
      assert.equal(execution.result.outcome, "refused");
      assert.ok(Deno.statSync(victim).isDirectory, "not removed");
    } finally {
      session.close();
    }
  } finally {
    await cleanup();
  }
});

const guard = {
  "manifest.yaml": `name: guard
version: 1.0.0
description: Blocks writes, annotates results, shouts
trust_level: sandbox
capabilities: [hook, tool]
hooks:
  - hook_point: pre_tool_call
    function: no_writes
  - hook_point: post_tool_call
    function: annotate
tools:
  - name: guard_shout
    description: Upper-case a text
    parameters:
      text: { type: string }
`,
  "tool.ts": `
export function no_writes(input: { tool_name: string }) {
  return input.tool_name === "write_file" ? { blocked: true, message: "read-only day" } : undefined;
}
export function annotate(input: { tool_name: string }) {
  return { note: "guard saw " + input.tool_name };
}
export function guard_shout(args: { text: string }): string { return args.text.toUpperCase(); }
`,
};

Deno.test("runtime: plugin hooks and plugin tools apply as on a full start", async () => {
  const { home, server, open, turn, installPlugin, cleanup } = setup();
  try {
    await installPlugin("guard", guard);
    const session = open();
    try {
      const target = join(home, "x.txt");
      server.reply(
        ollamaToolCall("write_file", { path: target, content: "x" }),
        ollamaToolCall("guard_shout", { text: "hi" }),
        ollamaText("Done."),
      );
      const result = await turn(session, "write a file and shout hi");
      const [write, shout] = result.toolExecutions;
      assert.equal(write.result.outcome, "refused");
      assert.match(write.result.text, /Blocked by plugin guard: read-only day/);
      assert.throws(() => Deno.statSync(target));
      assert.equal(shout.result.outcome, "ok", shout.result.text);
      assert.match(shout.result.text, /^HI\n.*guard saw guard_shout/);
    } finally {
      session.close();
    }
  } finally {
    await cleanup();
  }
});
