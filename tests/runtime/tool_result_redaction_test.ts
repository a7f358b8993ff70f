/**
 * A secret Radar learns after start (password_cmd run by the mail tool, password_env read by a
 * source) is masked in every tool result before it reaches the model or the conversation store:
 * built-in tools, plugin tools and their post_tool_call notes, MCP tools, and tool results stored
 * before the secret was known when they are replayed. Checked on what the fake LLM server
 * received over HTTP and on the stored messages.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { readPassword } from "../../src/sources/secret_source.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { dovecotPath, mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { hasBubblewrap } from "../tools/exec/exec_harness.ts";
import { startHostile } from "../mcp/hostile_harness.ts";

const mask = "********";

/** Everything the fake server was sent, as one text. */
function sentText(server: FakeLlmServer): string {
  return server.chatRequests.map((request) => JSON.stringify(request.body)).join("\n");
}

/** Every stored message of a conversation, as one text. */
function storedText(radar: Radar, conversationId: number): string {
  return JSON.stringify([...radar.conversations.eachMessage(conversationId)]);
}

function home(prefix: string, yaml: string, server: FakeLlmServer) {
  const folder = Deno.makeTempDirSync({ prefix });
  const config = join(folder, "radar-test.yaml");
  Deno.writeTextFileSync(config, `llm:\n  retries: 0\n${yaml}`);
  const env: Record<string, string> = {
    HOME: folder,
    RADAR_CONFIG: config,
    RADAR_DATA_DIR: join(folder, "data"),
    RADAR_LLM_BASE_URL: server.url,
  };
  return { folder, env, open: () => openRadar({ env, cwd: folder, logLevel: "error" }) };
}

async function turn(radar: Radar, message: string, conversationId?: number) {
  const id = conversationId ?? radar.conversations.createConversation("chat", "t", new Date());
  const result = await runAgent(radar.agent(), {
    conversationId: id,
    kind: "chat",
    userMessage: message,
    interactive: false,
  });
  return { id, result };
}

Deno.test({
  name: "a mail body quoting the password_cmd password reaches neither the model nor the store",
  ignore: dovecotPath() === undefined,
  async fn() {
    const password = "Pw-mail-body-7731";
    const mail = await startDovecot({ alice: password });
    const server = FakeLlmServer.start();
    const { folder, open } = home(
      "radar-result-redaction-",
      `email:\n  accounts:\n    - name: home\n      host: 127.0.0.1\n      port: ${mail.port}\n` +
        `      tls: none\n      user: alice\n      password_cmd: "echo ${password}"\n`,
      server,
    );
    await mail.deliver(
      "alice",
      password,
      mailMessage({
        from: "it@example.test",
        subject: "Your new password",
        body: `Your password is now ${password} — keep it safe.`,
      }),
    );
    const radar = open();
    try {
      server.reply(
        ollamaToolCall("list_email", {}),
        ollamaToolCall("read_email", { account: "home", uid: 1 }),
        ollamaText("Read it."),
      );
      const { id, result } = await turn(radar, "read my newest mail");
      assert.equal(result.answer, "Read it.");
      const read = result.toolExecutions[1];
      assert.equal(read.result.outcome, "ok", read.result.text);
      assert.match(read.result.text, /Your password is now \*{8} — keep it safe\./);
      assert.equal(server.chatRequests.length, 3);
      const sent = sentText(server);
      assert.ok(sent.includes(`Your password is now ${mask}`), "the mail body was sent, masked");
      assert.ok(!sent.includes(password), "the model never saw the password");
      const stored = storedText(radar, id);
      assert.ok(stored.includes(`Your password is now ${mask}`));
      assert.ok(!stored.includes(password), "no stored message holds the password");
    } finally {
      radar.close();
      await server.close();
      await mail.stop();
      Deno.removeSync(folder, { recursive: true });
    }
  },
});

const leaky = (secret: string) => ({
  "manifest.yaml": `name: leaky
version: 1.0.0
description: Prints what it finds
trust_level: sandbox
capabilities: [hook, tool]
hooks:
  - hook_point: post_tool_call
    function: annotate
tools:
  - name: leaky_status
    description: Show the status
    parameters:
      topic: { type: string }
`,
  "tool.ts": `
export function annotate() { return { note: "leaky also found ${secret}" }; }
export function leaky_status(): string { return "status: token in use is ${secret}"; }
`,
});

Deno.test("plugin tool results, their hook notes and replayed history are masked with a secret read later", async () => {
  const secret = "env-Secret-4419-late";
  const server = FakeLlmServer.start();
  const { folder, open } = home("radar-result-redaction-", "", server);
  try {
    const installer = open();
    try {
      writeFolder(join(folder, "sources", "leaky"), leaky(secret));
      installer.plugins!.manager.install(join(folder, "sources", "leaky"));
      await installer.plugins!.api.approve("leaky");
    } finally {
      await installer.plugins?.stop();
      installer.close();
    }
    const radar = open();
    try {
      // A tool result stored before the secret was known (an older run, an older Radar).
      const id = radar.conversations.createConversation("chat", "t", new Date());
      const at = new Date();
      radar.conversations.appendMessage(id, { role: "user", content: "status?", createdAt: at });
      radar.conversations.appendMessage(id, {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_old", name: "leaky_status", arguments: "{}" }],
        createdAt: at,
      });
      radar.conversations.appendMessage(id, {
        role: "tool",
        content: `old status: ${secret}`,
        toolCallId: "call_old",
        toolName: "leaky_status",
        createdAt: at,
      });
      radar.conversations.appendMessage(id, { role: "assistant", content: "ok", createdAt: at });

      // The secret becomes known after start: a source reads its password_env.
      const read = await readPassword({ password_cmd: "", password_env: "MAIL_PW" }, "home", {
        env: { MAIL_PW: secret },
        timeoutMs: 1000,
      });
      assert.equal(read, secret);

      server.reply(ollamaToolCall("leaky_status", { topic: "all" }), ollamaText("Fine."));
      const { result } = await turn(radar, "and now?", id);
      assert.equal(result.answer, "Fine.");
      const [execution] = result.toolExecutions;
      assert.equal(execution.result.outcome, "ok", execution.result.text);
      assert.match(
        execution.result.text,
        /^status: token in use is \*{8}\n.*leaky also found \*{8}/,
      );
      const [first] = server.chatRequests.map((request) =>
        request.body as { messages: Array<{ role: string; content: string }> }
      );
      assert.ok(
        first.messages.some((message) =>
          message.role === "tool" && message.content.includes(`old status: ${mask}`)
        ),
        "the older result is replayed, masked",
      );
      assert.ok(!sentText(server).includes(secret), "the model never saw the secret");
      const stored = storedText(radar, id);
      assert.ok(stored.includes(`token in use is ${mask}`), stored);
      // Only the row written before the secret was known still holds it (never sent again).
      assert.equal(stored.split(secret).length - 1, 1, stored);
    } finally {
      await radar.plugins?.stop();
      radar.close();
    }
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test({
  name: "an MCP tool's result is masked with a secret read after start",
  ignore: !hasBubblewrap,
  async fn() {
    const secret = "Mcp-Secret-8802-late";
    const hostile = await startHostile();
    const server = FakeLlmServer.start();
    const { folder, open } = home("radar-result-redaction-", "", server);
    const radar = open();
    try {
      for (const tool of hostile.tools) radar.registry.register(tool);
      const notes = join(hostile.folder, "notes.txt");
      Deno.writeTextFileSync(notes, `vault key: ${secret}\n`);
      await readPassword({ password_cmd: `echo ${secret}`, password_env: "" }, "vault", {
        env: {},
        timeoutMs: 5000,
      });
      server.reply(ollamaToolCall("mcp_evil_read_file", { path: notes }), ollamaText("Seen."));
      const { id, result } = await turn(radar, "read my notes");
      const [execution] = result.toolExecutions;
      assert.equal(execution.result.outcome, "ok", execution.result.text);
      assert.match(execution.result.text, /vault key: \*{8}/);
      assert.ok(!sentText(server).includes(secret), "the model never saw the secret");
      assert.ok(!storedText(radar, id).includes(secret), "nor the store");
    } finally {
      radar.close();
      await server.close();
      await hostile.source.close();
      hostile.home.dispose();
      Deno.removeSync(folder, { recursive: true });
    }
  },
});
