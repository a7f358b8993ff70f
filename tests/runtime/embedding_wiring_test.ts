import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";

async function runtimeWith(yaml: string, llmUrl: string) {
  const home = Deno.makeTempDirSync({ prefix: "radar-embed-wiring-" });
  const configPath = join(home, "radar.yaml");
  Deno.writeTextFileSync(configPath, yaml);
  const logged: string[] = [];
  const runtime = await openRadar({
    env: { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: llmUrl },
    cwd: home,
    configPath,
    logLevel: "warn",
    logWriters: [(line) => logged.push(line)],
  });
  return {
    runtime,
    logged,
    dispose: () => {
      runtime.close();
      Deno.removeSync(home, { recursive: true });
    },
  };
}

const context = { kind: "chat" as const, interactive: false, signal: AbortSignal.timeout(10_000) };
/** Rows of a table, read through a second connection to the runtime's database file. */
function count(runtime: { databasePath: string }, table: string): number {
  const db = openDatabase(runtime.databasePath);
  try {
    return Number((db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

Deno.test("with llm.embedding_model, recall and tool ranking embed through the model server", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("Hi."));
  const { runtime, dispose } = await runtimeWith(
    "llm:\n  retries: 0\n  embedding_model: nomic-embed-text\n  tool_budget_tokens: 600\n",
    server.url,
  );
  try {
    runtime.facts.addFact(
      { category: "learned_fact", content: "The dentist is Dr. Okafor" },
      new Date(),
    );
    const recall = (await runtime.agentStack()).registry.get("recall")!;
    const answer = await recall.run({ query: "dentist" }, context);
    assert.match(String(answer), /Dr\. Okafor/);
    assert.equal(count(runtime, "fact_embeddings"), 1);
    const conversationId = runtime.conversations.createConversation("chat", "t", new Date());
    await runAgent(await runtime.agent(), {
      conversationId,
      kind: "chat",
      userMessage: "what is the weather in Lyon",
      interactive: false,
    });
    const embedBodies = server.requests.filter((request) => request.path === "/api/embed")
      .map((request) => request.body as { model: string; input: string[] });
    assert.equal(embedBodies.length, 2, "one for recall, one for the tools (over budget)");
    assert.equal(embedBodies[1].model, "nomic-embed-text");
    assert.equal(embedBodies[1].input[0], "what is the weather in Lyon");
    assert.ok(count(runtime, "tool_embeddings") >= 17);
  } finally {
    dispose();
    await server.close();
  }
});

Deno.test("a dead embedding server: recall answers by keywords with one warning", async () => {
  const server = FakeLlmServer.start();
  const dead = FakeLlmServer.start();
  const deadUrl = dead.url;
  await dead.close();
  const { runtime, logged, dispose } = await runtimeWith(
    `llm:\n  retries: 0\n  embedding_model: nomic-embed-text\n  embedding_base_url: ${deadUrl}\n`,
    server.url,
  );
  try {
    runtime.facts.addFact(
      { category: "learned_fact", content: "The dentist is Dr. Okafor" },
      new Date(),
    );
    const recall = (await runtime.agentStack()).registry.get("recall")!;
    for (let index = 0; index < 2; index++) {
      assert.match(String(await recall.run({ query: "dentist" }, context)), /Dr\. Okafor/);
    }
    const warnings = logged.filter((line) =>
      /Embedding model "nomic-embed-text" failed/.test(line)
    );
    assert.equal(warnings.length, 1, logged.join("\n"));
    assert.match(warnings[0], /keywords only/);
  } finally {
    dispose();
    await server.close();
  }
});
