import assert from "node:assert/strict";
import { z } from "zod";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { AgentDependencies } from "../../src/core/agent_types.ts";
import { ConceptEmbeddings } from "../fakes/concept_embeddings.ts";
import { defineTool } from "../../src/core/tool_definition.ts";
import { EmbeddingToolRanker } from "../../src/core/tool_relevance.ts";
import { findToolsName, ToolRegistry, toolTokenCost } from "../../src/core/tool_registry.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { SqliteToolEmbeddings } from "../../src/adapters/sqlite/tool_embeddings.ts";
import { findToolsTool } from "../../src/tools/find_tools.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";

function tool(name: string, description: string, options: { alwaysOn?: boolean } = {}) {
  return defineTool({
    name,
    description,
    ...options,
    input: z.object({ text: z.string().describe("Text") }),
    run: ({ text }) => Promise.resolve(`${name}: ${text}`),
  });
}

/** A registry of always-on `remember`, five plain tools and find_tools. */
function registryWithFinder(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(tool("remember", "Save a fact", { alwaysOn: true }));
  registry.register(tool("read_file", "Read a text file"));
  registry.register(tool("notify", "Send a push notification"));
  registry.register(tool("home_lights", "Switch smart lamps on or off"));
  registry.register(tool("spotify_play", "Play a song on Spotify"));
  registry.register(tool("stock_quote", "Price of a stock ticker"));
  registry.register(findToolsTool(() => registry.list()));
  return registry;
}

const cost = (registry: ToolRegistry, ...names: string[]) =>
  names.reduce((sum, name) => sum + toolTokenCost(registry.get(name)!), 0);

/** A fake embedding model with three meanings: light, music, money. */
const conceptEmbeddings = () =>
  new ConceptEmbeddings([["lamp", "bright", "dark"], ["song", "tune"], ["stock", "shares"]], 0.01);

Deno.test("find_tools is hidden when every tool fits and offered, with the best matches, when not", () => {
  const registry = registryWithFinder();
  const all = registry.select("hello", 10_000).map((entry) => entry.name);
  assert.ok(!all.includes(findToolsName));
  assert.equal(all.length, 6);
  const budget = cost(registry, "remember", findToolsName, "notify");
  const offered = registry.select("send me a push notification", budget).map((entry) => entry.name);
  assert.deepEqual(offered, ["remember", "notify", findToolsName]);
});

Deno.test("semantic scores bring forward a tool that shares no word with the message", () => {
  const registry = registryWithFinder();
  const budget = cost(registry, "remember", findToolsName, "home_lights");
  const message = "make it bright in here";
  const keywordsOnly = registry.select(message, budget).map((entry) => entry.name);
  assert.ok(!keywordsOnly.includes("home_lights"), keywordsOnly.join(","));
  const scores = new Map([["home_lights", 0.9], ["spotify_play", 0.1], ["read_file", 0.05]]);
  const hybrid = registry.select(message, budget, { semanticScores: scores });
  assert.ok(hybrid.some((entry) => entry.name === "home_lights"));
});

Deno.test("tools used earlier in the conversation stay offered; pinned ones always", () => {
  const registry = registryWithFinder();
  const budget = cost(registry, "remember", findToolsName, "stock_quote");
  const names = (options: Parameters<ToolRegistry["select"]>[2]) =>
    registry.select("and now?", budget, options).map((entry) => entry.name);
  assert.ok(names({ recentTools: ["stock_quote"] }).includes("stock_quote"));
  assert.ok(names({ pinned: ["stock_quote"] }).includes("stock_quote"));
  assert.ok(!names({}).includes("stock_quote"));
});

Deno.test("a tool find_tools names is offered from the model's next round and can be called", async () => {
  const registry = registryWithFinder();
  const model = new ScriptedChatModel([
    toolCallResponse(findToolsName, { need: "turn the lamps off" }),
    toolCallResponse("home_lights", { text: "off" }),
    textResponse("Done."),
  ]);
  const db = openDatabase(":memory:");
  const store = new SqliteConversationStore(db);
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  const deps: AgentDependencies = {
    model,
    registry,
    store,
    clock,
    elapsed: () => 0,
    systemPrompt: () => "You are Radar.",
    settings: {
      maxToolIterations: 5,
      temperature: 0,
      toolBudgetTokens: cost(registry, "remember", findToolsName, "home_lights"),
      historyMessages: 20,
      maxResultChars: 2000,
    },
  };
  const conversationId = store.createConversation("ask", "test", clock.now());
  const result = await runAgent(deps, {
    conversationId,
    kind: "ask",
    userMessage: "it's too dark, do something",
    interactive: false,
  });
  const offered = model.requests.map((request) => request.tools.map((spec) => spec.name));
  assert.ok(!offered[0].includes("home_lights"), offered[0].join(","));
  assert.ok(offered[1].includes("home_lights"), offered[1].join(","));
  assert.equal(result.toolExecutions[1].result.text, "home_lights: off");
  assert.match(result.toolExecutions[0].result.text, /home_lights: Switch smart lamps/);

  // The next run of the conversation offers home_lights again: it was used earlier.
  model.push(textResponse("ok"));
  await runAgent(deps, { conversationId, kind: "ask", userMessage: "thanks", interactive: false });
  assert.ok(model.requests[3].tools.some((spec) => spec.name === "home_lights"));
  db.close();
});

Deno.test("find_tools lists every tool name when nothing matches", async () => {
  const registry = registryWithFinder();
  const finder = registry.get(findToolsName)!;
  const context = { kind: "ask" as const, interactive: false, signal: AbortSignal.timeout(1000) };
  const result = await finder.run({ need: "xyzzy" }, context);
  assert.equal(typeof result, "object");
  assert.match((result as { text: string }).text, /All tools: remember, read_file, notify/);
});

Deno.test("EmbeddingToolRanker caches tool vectors in SQLite and re-embeds a changed description", async () => {
  const db = openDatabase(":memory:");
  const embeddings = conceptEmbeddings();
  const warnings: string[] = [];
  const ranker = new EmbeddingToolRanker({
    model: embeddings,
    cache: new SqliteToolEmbeddings(db),
    warn: (line) => warnings.push(line),
    now: () => 0,
  });
  const tools = registryWithFinder().list();
  const first = await ranker.scores("make it bright", tools);
  assert.equal(embeddings.calls[0].length, 1 + tools.length);
  const best = [...first!.entries()].sort((a, b) => b[1] - a[1])[0][0];
  assert.equal(best, "home_lights");
  await ranker.scores("play a tune", tools);
  assert.deepEqual(embeddings.calls[1], ["play a tune"], "cached tools are not embedded again");
  const changed = tools.map((entry) =>
    entry.name === "stock_quote" ? { ...entry, description: "Price of shares" } : entry
  );
  await ranker.scores("buy shares", changed);
  assert.equal(embeddings.calls[2].length, 2);
  // A second ranker over the same database (a new process) needs only the message.
  const again = new EmbeddingToolRanker({
    model: embeddings,
    cache: new SqliteToolEmbeddings(db),
    warn: () => {},
    now: () => 0,
  });
  await again.scores("lamp", tools);
  assert.deepEqual(embeddings.calls[3], ["lamp"]);
  assert.deepEqual(warnings, []);
  db.close();
});

Deno.test("a dead embedding server means keyword ranking, one warning, and a retry later", async () => {
  const db = openDatabase(":memory:");
  const embeddings = conceptEmbeddings();
  embeddings.failing = true;
  const warnings: string[] = [];
  let now = 0;
  const ranker = new EmbeddingToolRanker({
    model: embeddings,
    cache: new SqliteToolEmbeddings(db),
    warn: (line) => warnings.push(line),
    now: () => now,
    retryAfterMs: 60_000,
  });
  const tools = registryWithFinder().list();
  assert.equal(await ranker.scores("lamp", tools), undefined);
  assert.equal(await ranker.scores("lamp", tools), undefined);
  assert.equal(embeddings.calls.length, 1, "no second try before the retry time");
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /Embedding model "concepts" failed .*keywords only/);
  now = 61_000;
  embeddings.failing = false;
  assert.ok(await ranker.scores("lamp", tools));
  assert.equal(warnings.length, 1);
  db.close();
});

Deno.test("the agent loop asks the ranker only when not every tool fits", async () => {
  const registry = registryWithFinder();
  const embeddings = conceptEmbeddings();
  const db = openDatabase(":memory:");
  const store = new SqliteConversationStore(db);
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  const model = new ScriptedChatModel([textResponse("a"), textResponse("b")]);
  const deps = (budget: number): AgentDependencies => ({
    model,
    registry,
    store,
    clock,
    elapsed: () => 0,
    systemPrompt: () => "You are Radar.",
    toolRanker: new EmbeddingToolRanker({
      model: embeddings,
      cache: new SqliteToolEmbeddings(db),
      warn: () => {},
      now: () => 0,
    }),
    settings: {
      maxToolIterations: 5,
      temperature: 0,
      toolBudgetTokens: budget,
      historyMessages: 20,
      maxResultChars: 2000,
    },
  });
  const conversationId = store.createConversation("ask", "test", clock.now());
  const request = { conversationId, kind: "ask" as const, interactive: false };
  await runAgent(deps(10_000), { ...request, userMessage: "too dark here" });
  assert.equal(embeddings.calls.length, 0);
  const budget = cost(registry, "remember", findToolsName, "home_lights");
  const result = await runAgent(deps(budget), { ...request, userMessage: "too dark here" });
  assert.equal(embeddings.calls.length, 1);
  assert.ok(result.offeredTools.includes("home_lights"), result.offeredTools.join(","));
  db.close();
});
