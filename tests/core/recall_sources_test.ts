/**
 * One recall over tagged sources: a fact, a conversation summary and a digest that share a numeric
 * id stay apart (through the fusion and the post_memory_search hooks), a new kind of source joins
 * without touching the fusion, and every embedded source shares one embedding call and one
 * failure warning.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { SqliteFactEmbeddings } from "../../src/adapters/sqlite/fact_embeddings.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { SqliteSummaryStore } from "../../src/adapters/sqlite/summary_store.ts";
import { SqliteSummaryEmbeddings } from "../../src/adapters/sqlite/summary_embeddings.ts";
import type { EmbeddingModel } from "../../src/core/embedding_model.ts";
import { Hooks, registrationAt } from "../../src/core/hooks.ts";
import { Recall, type RecallSource } from "../../src/core/recall.ts";
import { digestSource, factSource, summarySource } from "../../src/core/recall.ts";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { recallTool } from "../../src/tools/recall.ts";

const at = new Date("2026-11-23T09:00:00Z");
const context = { kind: "chat" as const, interactive: false, signal: AbortSignal.timeout(5000) };

/** One fact, one summary (conversation 1) and one digest, each with id 1, all about the dentist. */
function seeded() {
  const db = openDatabase(":memory:");
  const facts = new SqliteFactStore(db);
  const factId = facts.addFact({ category: "user_preference", content: "Dentist is Dr Molar" }, at);
  const conversationId = new SqliteConversationStore(db).createConversation("chat", "Teeth", at);
  const summaries = new SqliteSummaryStore(db);
  summaries.put({
    conversationId,
    title: "Teeth",
    content: "The user asked which dentist takes new patients.",
    lastMessageId: 1,
    messageCount: 4,
    conversationAt: at.toISOString(),
    summarizedAt: at.toISOString(),
  });
  const digests = new SqliteDigestStore(db);
  digests.save({
    period: "day",
    startsAt: "2026-11-23T00:00:00.000Z",
    endsAt: "2026-11-24T00:00:00.000Z",
    content: "- Booked the dentist for Tuesday",
    createdAt: "2026-11-24T07:00:00.000Z",
  });
  assert.deepEqual([factId, conversationId, digests.search("dentist", 1)[0].id], [1, 1, 1]);
  return { db, facts, summaries, digests };
}

Deno.test("a fact, a summary and a digest with the same id are all recalled, labelled right, and a hook keeps them apart", async () => {
  const { db, facts, summaries, digests } = seeded();
  try {
    const memory = new Recall([
      factSource(facts),
      summarySource(summaries),
      digestSource(digests),
    ]);
    const hits = await memory.search("dentist", 5);
    assert.deepEqual(
      hits.map((hit) => `${hit.kind}:${hit.id}`).sort(),
      ["digest:1", "fact:1", "summary:1"],
    );
    const hooks = new Hooks();
    hooks.register(registrationAt("post_memory_search", {
      name: "reverse",
      priority: 50,
      source: "test",
      description: "",
    }, ({ results }) => [...results].reverse()));
    const text = String(
      await recallTool({ facts, memory, hooks }).run({ query: "dentist" }, context),
    );
    const lines = text.split("\n");
    assert.equal(lines.length, 4, text);
    assert.equal(
      new Set(lines).size,
      4,
      "the reversed hits are matched back by kind and id, not merged by id",
    );
    assert.ok(lines.includes("#1 [user_preference] Dentist is Dr Molar"), text);
    assert.ok(
      lines.includes(
        '[summary of conversation "Teeth", 2026-11-23] The user asked which dentist takes new patients.',
      ),
      text,
    );
    assert.match(
      text,
      /\[digest day 2026-11-23: a summary of that period's .*\]\n- Booked the dentist for Tuesday/,
    );
  } finally {
    db.close();
  }
});

Deno.test("a new kind of source joins recall without touching the fusion", async () => {
  const { db, facts } = seeded();
  try {
    const notes: RecallSource = {
      kind: "note",
      cap: 1,
      keyword: (query) =>
        ["dentist on Tuesday", "dentist parking"].filter((note) => note.includes(query)).map((
          content,
          index,
        ) => ({ kind: "note", id: index + 1, category: "note", content })),
    };
    const memory = new Recall([factSource(facts), notes]);
    const tool = recallTool({ facts, memory });
    assert.equal(
      await tool.run({ query: "dentist" }, context),
      "#1 [user_preference] Dentist is Dr Molar\n[note] dentist on Tuesday",
      "the fact first on a tie, one note (its cap), shown by its label without an #id",
    );
  } finally {
    db.close();
  }
});

Deno.test("facts and summaries are embedded in one call per search; a dead server is one warning for both", async () => {
  const { db, facts, summaries } = seeded();
  try {
    const calls: string[][] = [];
    let failing = false;
    const model: EmbeddingModel = {
      model: "flat",
      embed: (texts) => {
        calls.push(texts);
        if (failing) return Promise.reject(new Error("connection refused"));
        return Promise.resolve(texts.map(() => [1, 0]));
      },
    };
    const warnings: string[] = [];
    let now = 0;
    const memory = new Recall([
      factSource(facts, { vectors: new SqliteFactEmbeddings(db) }),
      summarySource(summaries, new SqliteSummaryEmbeddings(db)),
    ], { model, warn: (line) => warnings.push(line), now: () => now, retryAfterMs: 1000 });
    const found = await memory.search("teeth", 5);
    assert.deepEqual(calls, [[
      "teeth",
      "Dentist is Dr Molar",
      "Teeth\nThe user asked which dentist takes new patients.",
    ]]);
    assert.deepEqual(found.map((hit) => hit.kind).sort(), ["fact", "summary"], "by meaning too");
    failing = true;
    const keywordsOnly = await memory.search("patients", 5);
    assert.deepEqual(keywordsOnly.map((hit) => `${hit.kind}:${hit.id}`), ["summary:1"]);
    await memory.search("dentist", 5);
    assert.equal(calls.length, 2, "no retry before retryAfterMs");
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /Embedding model "flat" failed \(connection refused\); .*keywords only/,
    );
    now += 1001;
    await memory.search("dentist", 5);
    assert.equal(calls.length, 3, "retried");
    assert.equal(warnings.length, 1, "one warning per failure streak");
  } finally {
    db.close();
  }
});
