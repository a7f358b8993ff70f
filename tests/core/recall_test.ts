import assert from "node:assert/strict";
import { ConceptEmbeddings } from "../fakes/concept_embeddings.ts";
import { Recall } from "../../src/core/recall.ts";
import { factSource } from "../../src/core/recall.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteFactEmbeddings } from "../../src/adapters/sqlite/fact_embeddings.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { recallTool } from "../../src/tools/recall.ts";

/** A fake embedding model with three meanings: animals, food, travel. */
const conceptEmbeddings = () =>
  new ConceptEmbeddings([
    ["dog", "cat", "pet", "puppy"],
    ["pizza", "allerg", "peanut", "eat"],
    ["flight", "trip", "travel", "passport"],
  ], 0.05);

function memory(model?: ConceptEmbeddings, batchSize?: number) {
  const db = openDatabase(":memory:");
  const facts = new SqliteFactStore(db);
  const at = new Date("2026-11-23T09:00:00Z");
  for (
    const content of [
      "The user has a dog named Rex",
      "The user is allergic to peanuts",
      "Passport expires in March 2027",
      "The user's favourite colour is green",
    ]
  ) facts.addFact({ category: "learned_fact", content }, at);
  const warnings: string[] = [];
  let now = 0;
  const source = factSource(facts, { vectors: new SqliteFactEmbeddings(db), batchSize });
  const recall = new Recall(
    [source],
    model && { model, warn: (line) => warnings.push(line), now: () => now, retryAfterMs: 60_000 },
  );
  return { db, facts, recall, warnings, advance: (ms: number) => now += ms };
}

const contents = (facts: { content: string }[]) => facts.map((fact) => fact.content);

Deno.test("recall finds facts by meaning as well as keywords, fused, and by keywords alone without a model", async () => {
  const plain = memory();
  assert.deepEqual(contents(await plain.recall.search("my pet", 2)), []);
  assert.deepEqual(contents(await plain.recall.search("dog", 2)), ["The user has a dog named Rex"]);
  plain.db.close();

  const semantic = memory(conceptEmbeddings());
  assert.deepEqual(contents(await semantic.recall.search("my pet", 1)), [
    "The user has a dog named Rex",
  ]);
  const food = contents(await semantic.recall.search("what can't I eat", 1));
  assert.deepEqual(food, ["The user is allergic to peanuts"]);
  const both = contents(await semantic.recall.search("favourite trip", 2));
  assert.deepEqual(both.sort(), [
    "Passport expires in March 2027",
    "The user's favourite colour is green",
  ], "the keyword hit and the meaning hit both make the top two");
  semantic.db.close();
});

Deno.test("facts are embedded in bounded batches, once, and again after an edit; deleted facts drop out", async () => {
  const model = conceptEmbeddings();
  const { db, facts, recall } = memory(model, 3);
  await recall.search("pet", 2);
  assert.equal(model.calls[0].length, 1 + 3, "a batch of three facts plus the query");
  await recall.search("pet", 2);
  assert.equal(model.calls[1].length, 1 + 1, "the last fact");
  await recall.search("pet", 2);
  assert.deepEqual(model.calls[2], ["pet"], "nothing left to embed");
  facts.updateFact(1, "The user has a cat named Tom", new Date("2026-11-24T09:00:00Z"));
  assert.deepEqual(contents(await recall.search("pet", 1)), ["The user has a cat named Tom"]);
  assert.deepEqual(model.calls[3], ["pet", "The user has a cat named Tom"]);
  facts.forgetFact(1);
  assert.deepEqual(
    contents(await recall.search("pet", 1)).includes("The user has a cat named Tom"),
    false,
  );
  const left = db.prepare("SELECT COUNT(*) AS n FROM fact_embeddings").get() as { n: number };
  assert.equal(Number(left.n), 3);
  db.close();
});

Deno.test("a dead embedding server: keyword results, one warning, a retry later", async () => {
  const model = conceptEmbeddings();
  model.failing = true;
  const { db, recall, warnings, advance } = memory(model);
  assert.deepEqual(contents(await recall.search("peanuts", 3)), [
    "The user is allergic to peanuts",
  ]);
  await recall.search("pet", 3);
  assert.equal(model.calls.length, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /Embedding model "concepts" failed .*keywords only/);
  advance(61_000);
  model.failing = false;
  assert.deepEqual(contents(await recall.search("pet", 1)), ["The user has a dog named Rex"]);
  assert.equal(warnings.length, 1);
  db.close();
});

Deno.test("the recall tool uses memory search when given one", async () => {
  const { db, facts, recall } = memory(conceptEmbeddings());
  const tool = recallTool({ facts, memory: recall });
  const context = { kind: "chat" as const, interactive: false, signal: AbortSignal.timeout(5000) };
  const parsed = tool.parse({ query: "my puppy" });
  assert.ok(parsed.ok);
  assert.equal(
    await tool.run(parsed.value, context),
    "#1 [learned_fact] The user has a dog named Rex",
    "unrelated facts are not listed",
  );
  const keywordsOnly = recallTool({ facts });
  assert.equal(await keywordsOnly.run(parsed.value, context), 'No memories match "my puppy".');
  db.close();
});
