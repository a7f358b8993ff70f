/**
 * What `radar ask` and `radar chat` run on (the runtime) applies every rule of a tool call: a
 * destructive command asks in chat, plugins' pre_tool_call hooks block and post_tool_call hooks
 * annotate, enabled plugin tools are offered and run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { chatTurn, type FakeLlmHome, withFakeLlmHome } from "../helpers/fake_llm_home.ts";

/** A fake LLM home whose exec may write to ~/work, with `plugins` installed, and a Radar on it. */
async function withRules(
  plugins: Record<string, Record<string, string>>,
  work: (radar: Radar, home: FakeLlmHome) => Promise<void>,
) {
  await withFakeLlmHome({
    prefix: "radar-rules-",
    yaml: 'tools:\n  exec:\n    writable_roots: ["~/work"]\n',
  }, async (home) => {
    Deno.mkdirSync(join(home.folder, "work"));
    for (const [name, files] of Object.entries(plugins)) await home.installPlugin(name, files);
    await home.withRadar((radar) => work(radar, home));
  });
}

Deno.test("runtime: a destructive command in chat asks first", async () => {
  await withRules({}, async (session, { folder: home, server }) => {
    const victim = join(home, "work/old");
    Deno.mkdirSync(victim);
    const questions: string[] = [];
    server.reply(ollamaToolCall("exec", { command: "rm -rf ~/work/old" }), ollamaText("Kept."));
    const { result } = await chatTurn(session, "run rm on my old folder", {
      confirm: (question) => {
        questions.push(question);
        return Promise.resolve(false);
      },
    });
    const execution = result.toolExecutions[0];
    assert.equal(questions.length, 1, execution.result.text);
    assert.match(
      questions[0],
      /(may change files in ~\/work|No sandbox is active).*:\n {2}rm -rf ~\/work\/old/,
    );
    assert.equal(execution.result.outcome, "refused");
    assert.ok(Deno.statSync(victim).isDirectory, "not removed");
  });
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
  await withRules({ guard }, async (session, { folder: home, server }) => {
    const target = join(home, "x.txt");
    server.reply(
      ollamaToolCall("write_file", { path: target, content: "x" }),
      ollamaToolCall("guard_shout", { text: "hi" }),
      ollamaText("Done."),
    );
    const { result } = await chatTurn(session, "write a file and shout hi");
    const [write, shout] = result.toolExecutions;
    assert.equal(write.result.outcome, "refused");
    assert.match(write.result.text, /Blocked by plugin guard: read-only day/);
    assert.throws(() => Deno.statSync(target));
    assert.equal(shout.result.outcome, "ok", shout.result.text);
    assert.match(shout.result.text, /^HI\n.*guard saw guard_shout/);
  });
});
