/**
 * A secret Radar learns after start (password_cmd run by the mail tool, password_env read by a
 * source) is masked in every tool result before it reaches the model or the conversation store:
 * built-in tools, plugin tools and their post_tool_call notes, MCP tools, and tool results stored
 * before the secret was known when they are replayed. Checked on what the fake LLM server
 * received over HTTP and on the stored messages.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { readPassword } from "../../src/adapters/os/account_secrets.ts";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { startHostile } from "../mcp/hostile_harness.ts";
import {
  chatTurn,
  learnSecretFromEnv,
  noRetriesYaml,
  secretMask as mask,
  seedConversation,
  sentText,
  withFakeLlmHome,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

/** Every stored message of a conversation, as one text. */
function storedText(radar: Radar, conversationId: number): string {
  return JSON.stringify([...radar.conversations.eachMessage(conversationId)]);
}

Deno.test(needing(["dovecot"], {
  name: "a mail body quoting the password_cmd password reaches neither the model nor the store",
  async fn() {
    const password = "Pw-mail-body-7731";
    const mail = await startDovecot({ alice: password });
    try {
      await withFakeLlmHome({
        prefix: "radar-result-redaction-",
        yaml: noRetriesYaml +
          `email:\n  accounts:\n    - name: home\n      host: 127.0.0.1\n      port: ${mail.port}\n` +
          `      tls: none\n      user: alice\n      password_cmd: "echo ${password}"\n`,
      }, async (home) => {
        await mail.deliver(
          "alice",
          password,
          mailMessage({
            from: "it@example.test",
            subject: "Your new password",
            body: `Your password is now ${password} — keep it safe.`,
          }),
        );
        await home.withRadar(async (radar) => {
          const { server } = home;
          server.reply(
            ollamaToolCall("list_email", {}),
            ollamaToolCall("read_email", { account: "home", uid: 1 }),
            ollamaText("Read it."),
          );
          const { id, result } = await chatTurn(radar, "read my newest mail");
          assert.equal(result.answer, "Read it.");
          const read = result.toolExecutions[1];
          assert.equal(read.result.outcome, "ok", read.result.text);
          assert.match(read.result.text, /Your password is now \*{8} — keep it safe\./);
          assert.equal(server.chatRequests.length, 3);
          const sent = sentText(server);
          assert.ok(
            sent.includes(`Your password is now ${mask}`),
            "the mail body was sent, masked",
          );
          assert.ok(!sent.includes(password), "the model never saw the password");
          const stored = storedText(radar, id);
          assert.ok(stored.includes(`Your password is now ${mask}`));
          assert.ok(!stored.includes(password), "no stored message holds the password");
        });
      });
    } finally {
      await mail.stop();
    }
  },
}));

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
  await withFakeLlmRadar({
    prefix: "radar-result-redaction-",
    plugins: { leaky: leaky(secret) },
  }, async (radar, { server }) => {
    // A tool result stored before the secret was known (an older run, an older Radar).
    const id = seedConversation(radar, [
      { role: "user", content: "status?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_old", name: "leaky_status", arguments: "{}" }],
      },
      {
        role: "tool",
        content: `old status: ${secret}`,
        toolCallId: "call_old",
        toolName: "leaky_status",
      },
      { role: "assistant", content: "ok" },
    ]);

    // The secret becomes known after start: a source reads its password_env.
    const read = await learnSecretFromEnv(radar, "MAIL_PW", secret, "home");
    assert.equal(read, secret);

    server.reply(ollamaToolCall("leaky_status", { topic: "all" }), ollamaText("Fine."));
    const { result } = await chatTurn(radar, "and now?", { conversationId: id });
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
  });
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "an MCP tool's result is masked with a secret read after start",
  async fn() {
    const secret = "Mcp-Secret-8802-late";
    const hostile = await startHostile();
    try {
      await withFakeLlmRadar({ prefix: "radar-result-redaction-" }, async (radar, { server }) => {
        for (const tool of hostile.tools) (await radar.agentStack()).registry.register(tool);
        const notes = join(hostile.folder, "notes.txt");
        Deno.writeTextFileSync(notes, `vault key: ${secret}\n`);
        await readPassword({ password_cmd: `echo ${secret}`, password_env: "" }, "vault", {
          env: {},
          timeoutMs: 5000,
          secrets: radar.secrets,
        });
        server.reply(ollamaToolCall("mcp_evil__read_file", { path: notes }), ollamaText("Seen."));
        // The MCP server's tool descriptions are outside text the run reads: the path comes from
        // the user's own words, so the call runs without a question.
        const { id, result } = await chatTurn(radar, `read my notes in ${notes}`);
        const [execution] = result.toolExecutions;
        assert.equal(execution.result.outcome, "ok", execution.result.text);
        assert.match(execution.result.text, /vault key: \*{8}/);
        assert.ok(!sentText(server).includes(secret), "the model never saw the secret");
        assert.ok(!storedText(radar, id).includes(secret), "nor the store");
      });
    } finally {
      await hostile.source.close();
      hostile.home.dispose();
    }
  },
}));
