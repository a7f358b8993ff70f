/**
 * Secrets given only through the environment (RADAR_LLM_API_KEY, RADAR_NTFY_TOKEN,
 * RADAR_WEB_AUTH_TOKEN) are never written to the startup cache, yet a quick start uses them: in
 * the model request and in the audit trail's redaction.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { openAgentSession } from "../../src/runtime/agent_session.ts";
import { startupCachePath } from "../../src/runtime/startup_cache.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

const secrets = {
  RADAR_LLM_API_KEY: "sk-env-only-4f2a9c",
  RADAR_NTFY_TOKEN: "tk_env_only_77b1",
  RADAR_WEB_AUTH_TOKEN: "web-env-only-d3e8",
};

Deno.test("startup cache: secrets from the environment stay out of the file and still apply", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-env-secrets-" });
  const server = FakeLlmServer.start();
  const base = { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: server.url };
  Deno.writeTextFileSync(join(home, "radar.yaml"), "llm:\n  api_key: sk-from-the-file\n");
  const open = (env: Record<string, string>) =>
    openAgentSession({ env, cwd: home, logLevel: "error" });
  try {
    const env = { ...base, ...secrets };
    (await open(env)).close();
    const text = Deno.readTextFileSync(startupCachePath(env));
    for (const value of Object.values(secrets)) assert.ok(!text.includes(value), value);

    const session = await open(env);
    try {
      assert.equal(session.quickStart, true);
      server.reply(
        ollamaToolCall("remember", { content: `My key is ${secrets.RADAR_LLM_API_KEY}` }),
        ollamaText("Noted."),
      );
      const conversationId = session.conversations.createConversation("ask", "k", new Date());
      await runAgent(session.agent(), {
        conversationId,
        kind: "ask",
        userMessage: "remember my key",
        interactive: false,
      });
    } finally {
      session.close();
    }
    const request = server.chatRequests.at(-1)!;
    assert.equal(request.headers.get("authorization"), `Bearer ${secrets.RADAR_LLM_API_KEY}`);
    const db = openDatabase(join(home, "data", "radar.db"));
    try {
      const row = db.prepare("SELECT arguments FROM tool_calls").get() as { arguments: string };
      assert.ok(!row.arguments.includes(secrets.RADAR_LLM_API_KEY), row.arguments);
    } finally {
      db.close();
    }

    const withoutKey = await open({ ...base, RADAR_NTFY_TOKEN: secrets.RADAR_NTFY_TOKEN });
    try {
      assert.equal(withoutKey.quickStart, false, "a secret no longer set is a miss");
      server.reply(ollamaText("Hi."));
      const conversationId = withoutKey.conversations.createConversation("ask", "h", new Date());
      await runAgent(withoutKey.agent(), {
        conversationId,
        kind: "ask",
        userMessage: "hi",
        interactive: false,
      });
    } finally {
      withoutKey.close();
    }
    assert.equal(
      server.chatRequests.at(-1)!.headers.get("authorization"),
      "Bearer sk-from-the-file",
    );
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});
