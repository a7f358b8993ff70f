import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { runCli } from "../../src/cli/program.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { tempHome } from "../tools/tool_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

function environment(home: string): Record<string, string> {
  return {
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    RADAR_LLM_API_KEY: "sk-cli-secret",
    PATH: Deno.env.get("PATH") ?? "",
  };
}

Deno.test("radar tools lists every built-in tool with its source, cost and description", async () => {
  const home = tempHome();
  try {
    const io = memoryIo(environment(home.home), { cwd: home.home });
    assert.equal(await runCli(["tools"], io), 0);
    const out = io.out.join("");
    for (
      const name of [
        "exec",
        "read_file",
        "write_file",
        "list_directory",
        "notify",
        "pdf_extract",
        "web_search",
        "fetch_url",
        "weather",
        "remember",
        "recall",
        "schedule_task",
        "list_tasks",
        "cancel_task",
        "monitor_url",
        "list_monitors",
        "remove_monitor",
        "use_skill",
        "comic_info",
      ]
    ) {
      assert.match(out, new RegExp(`^${name} +builtin +\\d+ tok  `, "m"), name);
    }
    assert.match(out, /^exec +builtin +\d+ tok {2}Run a shell command/m);
    assert.match(out, /^comic_info +builtin +\d+ tok {2}\[on demand\] Comic\/PDF metadata/m);
    // The browser is a tool where a Chromium/Chrome is found (on PATH here when .ci/run set it up).
    const tools = /^browser +builtin/m.test(out) ? 22 : 21;
    assert.match(
      out,
      new RegExp(
        `${tools} tools, \\d+ schema tokens in all\\. A first request \\("hello"\\) offers \\d+ ` +
          "of them \\(llm\\.tool_budget_tokens 1200\\) and costs ~\\d+ tokens",
      ),
    );
  } finally {
    home.dispose();
  }
});

Deno.test("radar log tools shows the audit trail, filtered, with secrets redacted", async () => {
  const home = tempHome();
  try {
    const env = environment(home.home);
    const clock = new ManualClock(new Date("2026-11-22T09:15:00Z"));
    const runtime = await openRadar({ env, cwd: home.home, clock, logLevel: "error" });
    const model = new ScriptedChatModel([
      toolCallResponse("list_directory", { path: "~" }),
      toolCallResponse("fetch_url", { url: "http://127.0.0.1:9/?api_key=sk-cli-secret&page=2" }),
      toolCallResponse("read_file", { path: "~/.ssh/id_rsa" }),
      textResponse("done"),
    ]);
    const conversationId = runtime.conversations.createConversation("ask", "t", clock.now());
    await runAgent({ ...await runtime.agent(), model }, {
      conversationId,
      kind: "ask",
      userMessage: "look around",
      interactive: false,
      toolNames: ["list_directory", "fetch_url", "read_file"],
    });
    runtime.close();

    let io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["log", "tools"], io), 0);
    let out = io.out.join("");
    assert.match(out, /#1 {2}list_directory +ok +\d+ ms {2}\{"path":"~"\}/);
    assert.match(out, /fetch_url +refused .*api_key=\*\*\*\*\*\*\*\*&page=2/);
    assert.match(
      out,
      /read_file +refused .*\n +→ Cannot read ~\/\.ssh\/id_rsa: protected by rule ~\/\.ssh/,
    );
    assert.doesNotMatch(out, /sk-cli-secret/);
    io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["log", "tools", "--failed", "--tool", "read_file"], io), 0);
    out = io.out.join("");
    assert.equal(out.split("\n").filter((line) => /^\d{4}-/.test(line)).length, 1);
    io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["log", "tools", "-n", "1"], io), 0);
    assert.match(io.out.join(""), /read_file/);
    assert.doesNotMatch(io.out.join(""), /list_directory/);
    io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["log", "tools", "--limit", "0"], io), 2);
  } finally {
    home.dispose();
  }
});

Deno.test("the audit trail prunes rows older than tools.audit_retention_days", async () => {
  const home = tempHome();
  try {
    const env = environment(home.home);
    const clock = new ManualClock(new Date("2026-01-01T00:00:00Z"));
    let runtime = await openRadar({ env, cwd: home.home, clock, logLevel: "error" });
    const entry = {
      tool: "exec",
      arguments: "{}",
      durationMs: 1,
      outcome: "ok" as const,
      result: "",
    };
    runtime.toolCalls.recordToolCall({ ...entry, at: clock.now() });
    clock.advance(89 * 86_400_000);
    runtime.toolCalls.recordToolCall({ ...entry, at: clock.now() });
    runtime.close();
    clock.advance(2 * 86_400_000);
    runtime = await openRadar({ env, cwd: home.home, clock, logLevel: "error" });
    assert.deepEqual(runtime.toolCalls.list({ limit: 10 }).map((row) => row.at), [
      "2026-03-31T00:00:00.000Z",
    ]);
    runtime.close();
  } finally {
    home.dispose();
  }
});

// Its lines name the sandbox found on this machine: bubblewrap on Linux.
Deno.test(needing([onLinux, "bubblewrap"], {
  name: "radar status has a security section: sandbox or NONE, writable roots, network, unattended",
}, async () => {
  const home = tempHome();
  try {
    const env = environment(home.home);
    Deno.mkdirSync(join(home.home, "work"));
    const config = join(home.home, "radar.yaml");
    Deno.writeTextFileSync(
      config,
      `tools:\n  exec:\n    writable_roots: ["${join(home.home, "work")}"]\n`,
    );
    let io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["--config", config, "status"], io), 1, "exit 1: no model server");
    assert.match(
      io.out.join(""),
      /^security:\n {2}exec: +sandbox bubblewrap \(\S*bwrap; own PID namespace[^\n]*\n {2}writable: +~\/\.local\/state\/radar\/scratch; \S+\/work after a yes in chat\n {2}network: +off inside the sandbox\n {2}unattended: +exec in the sandbox, writing only ~\/\.local\/state\/radar\/scratch/m,
    );
    Deno.writeTextFileSync(config, "tools:\n  exec:\n    sandbox: false\n");
    io = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["--config", config, "status"], io), 1);
    assert.match(
      io.out.join(""),
      /^ {2}exec: +sandbox NONE \(tools\.exec\.sandbox is false\): every command needs a yes in chat\n {2}unattended: +heartbeats, tasks and `radar ask` never run exec/m,
    );
  } finally {
    home.dispose();
  }
}));
