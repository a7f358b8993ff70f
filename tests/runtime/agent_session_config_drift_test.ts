/**
 * A quick session loads its tools at the first tool call, possibly long after it started (a
 * `radar chat` left open). They must run on the config the session started with, as on a full
 * start, and the cache must never pair one config file's key with another file's config.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { type AgentSession, openAgentSession } from "../../src/runtime/agent_session.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

function setup() {
  const home = Deno.makeTempDirSync({ prefix: "radar-drift-" });
  const server = FakeLlmServer.start();
  const env = { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: server.url };
  const configPath = join(home, "radar.yaml");
  const writeConfig = (text: string) => Deno.writeTextFileSync(configPath, text);
  const open = () => openAgentSession({ env, cwd: home, logLevel: "error" });
  const turn = async (session: AgentSession, message: string) => {
    const conversationId = session.conversations.createConversation("chat", message, new Date());
    return await runAgent(session.agent(), {
      conversationId,
      kind: "chat",
      userMessage: message,
      interactive: false,
    });
  };
  const cleanup = async () => {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  };
  return { server, writeConfig, open, turn, cleanup };
}

Deno.test("agent session: a config edited while a quick session runs never enters the cache under the old key", async () => {
  const { server, writeConfig, open, turn, cleanup } = setup();
  try {
    writeConfig("radar:\n  name: Ada\n");
    (await open()).close();
    const session = await open();
    try {
      assert.equal(session.quickStart, true);
      writeConfig("radar:\n  name: Bob\n");
      server.reply(ollamaToolCall("remember", { content: "Tea" }), ollamaText("Noted."));
      await turn(session, "remember tea");
    } finally {
      session.close();
    }
    writeConfig("radar:\n  name: Ada\n");
    const again = await open();
    try {
      assert.match(again.agent().systemPrompt(), /You are Ada/);
    } finally {
      again.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("agent session: tools of a quick session run on the config it started with, as on a full start", async () => {
  const { server, writeConfig, open, turn, cleanup } = setup();
  try {
    for (const quickStart of [false, true]) {
      writeConfig("radar:\n  name: Ada\n");
      const session = await open();
      try {
        assert.equal(session.quickStart, quickStart);
        writeConfig("radar: [unclosed\n");
        server.reply(ollamaToolCall("remember", { content: "Tea" }), ollamaText("Noted."));
        const execution = (await turn(session, "remember tea")).toolExecutions[0];
        assert.equal(
          execution.result.outcome,
          "ok",
          `quickStart ${quickStart}: ${execution.result.text}`,
        );
      } finally {
        session.close();
      }
    }
  } finally {
    await cleanup();
  }
});
