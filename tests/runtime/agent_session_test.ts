/**
 * The two start paths of `radar ask`/`chat` over a real SQLite file and real HTTP to the fake LLM
 * server: a full start writes the startup cache; the next start sends its first request from the
 * cache and loads the tools only when the model calls one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openAgentSession } from "../../src/runtime/agent_session.ts";
import { DeferredToolRegistry } from "../../src/runtime/deferred_registry.ts";
import { readStartupCache, startupCachePath } from "../../src/runtime/startup_cache.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

function setup() {
  const home = Deno.makeTempDirSync({ prefix: "radar-session-" });
  const server = FakeLlmServer.start();
  const env = { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: server.url };
  const open = () => openAgentSession({ env, cwd: home, logLevel: "error" });
  const ask = async (message: string) => {
    const session = await open();
    try {
      const conversationId = session.conversations.createConversation("ask", message, new Date());
      const result = await runAgent(session.agent(), {
        conversationId,
        kind: "ask",
        userMessage: message,
        interactive: false,
      });
      return { session, result };
    } finally {
      session.close();
    }
  };
  const cleanup = async () => {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  };
  return { home, server, env, open, ask, cleanup };
}

Deno.test("agent session: a full start writes the cache; the next start runs a tool call from it", async () => {
  const { home, server, env, ask, cleanup } = setup();
  try {
    server.reply(ollamaText("hello"));
    const first = await ask("hello");
    assert.equal(first.session.quickStart, false, "no cache yet");
    assert.equal(first.result.answer, "hello");
    const cache = readStartupCache(startupCachePath(env));
    assert.ok(cache, "the full start wrote the cache");
    assert.ok(cache.tools.some((tool) => tool.name === "remember"));

    server.reply(
      ollamaToolCall("remember", { content: "The user likes green tea" }),
      ollamaText("Noted."),
    );
    const second = await ask("remember that I like green tea");
    assert.equal(second.session.quickStart, true);
    assert.equal(second.result.answer, "Noted.");
    const execution = second.result.toolExecutions[0];
    assert.equal(execution.result.outcome, "ok", execution.result.text);
    const offered =
      (server.chatRequests[1].body as { tools: Array<{ function: { name: string } }> })
        .tools.map((tool) => tool.function.name);
    assert.ok(offered.includes("remember"), "the cached catalog was offered");
    const db = openDatabase(join(home, "data", "radar.db"));
    try {
      const facts = new SqliteFactStore(db).listFacts({ limit: 5 });
      assert.deepEqual(facts.map((fact) => fact.content), ["The user likes green tea"]);
      const audited = db.prepare("SELECT tool, outcome FROM tool_calls").all();
      assert.deepEqual(audited.map((row) => [row.tool, row.outcome]), [["remember", "ok"]]);
    } finally {
      db.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("agent session: the cached registry defers; a changed config file is a miss", async () => {
  const { home, server, open, ask, cleanup } = setup();
  try {
    server.reply(ollamaText("one"));
    await ask("hello");
    const quick = await open();
    try {
      assert.equal(quick.quickStart, true);
      assert.ok(quick.agent().registry instanceof DeferredToolRegistry);
    } finally {
      quick.close();
    }
    Deno.writeTextFileSync(join(home, "radar.yaml"), "radar:\n  name: Scout\n");
    const changed = await open();
    try {
      assert.equal(changed.quickStart, false, "new config text → full start");
      assert.match(changed.agent().systemPrompt(), /You are Scout/);
    } finally {
      changed.close();
    }
    const again = await open();
    try {
      assert.equal(again.quickStart, true);
      assert.match(again.agent().systemPrompt(), /You are Scout/, "the cache holds the new config");
    } finally {
      again.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("agent session: a stale catalog entry is refreshed once the real tools load", async () => {
  const { server, env, ask, cleanup } = setup();
  try {
    server.reply(ollamaText("one"));
    await ask("hello");
    const path = startupCachePath(env);
    const cache = readStartupCache(path)!;
    const real = cache.tools.find((tool) => tool.name === "remember")!.description;
    for (const tool of cache.tools) if (tool.name === "remember") tool.description = "STALE";
    Deno.writeTextFileSync(path, JSON.stringify(cache));
    server.reply(ollamaToolCall("remember", { content: "Tea" }), ollamaText("Noted."));
    const { session } = await ask("remember tea");
    assert.equal(session.quickStart, true);
    const refreshed = readStartupCache(path)!;
    assert.equal(refreshed.tools.find((tool) => tool.name === "remember")!.description, real);
  } finally {
    await cleanup();
  }
});
