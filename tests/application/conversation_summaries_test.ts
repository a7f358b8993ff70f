import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteSummaryStore } from "../../src/adapters/sqlite/summary_store.ts";
import { SqliteSummaryEmbeddings } from "../../src/adapters/sqlite/summary_embeddings.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { summaryTranscript, transcriptBounds } from "../../src/core/conversation_summary.ts";
import type { EmbeddingModel } from "../../src/core/embedding_model.ts";
import { Recall } from "../../src/core/recall.ts";
import { summarySource } from "../../src/core/recall.ts";
import type { StoredMessage } from "../../src/core/ports.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { type FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { noRetriesYaml, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";
import { readPassword } from "../../src/adapters/os/account_secrets.ts";

const start = new Date("2026-11-23T10:00:00Z");
const context = { kind: "chat" as const, interactive: false, signal: AbortSignal.timeout(10_000) };

async function withRuntime(
  yaml: string,
  work: (radar: Radar, server: FakeLlmServer, clock: ManualClock) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock(start);
  await withFakeLlmRadar(
    { prefix: "radar-summaries-", yaml: noRetriesYaml + yaml, clock },
    (radar, { server }) => work(radar, server, clock),
  );
}

function chat(radar: Radar, at: Date, title: string, turns: string[]): number {
  const id = radar.conversations.createConversation("chat", title, at);
  turns.forEach((content, index) =>
    radar.conversations.appendMessage(id, {
      role: index % 2 ? "assistant" : "user",
      content,
      createdAt: at,
    })
  );
  return id;
}

async function summaryJob(radar: Radar) {
  const job = (await radar.tickJobs()).find((candidate) =>
    candidate.name === "conversation summaries"
  );
  assert.ok(job, "the summary job runs on every tick");
  return job;
}

const tripTurns = [
  "Help me plan the Lyon trip in March",
  "Sure: trains leave Paris hourly.",
  "Book nothing yet, I want to compare hotels near Bellecour",
  "Noted: compare hotels near Bellecour before booking.",
];

Deno.test("a quiet conversation is summarized once, stored, and found by recall's keywords", async () => {
  await withRuntime("", async (radar, server, clock) => {
    chat(radar, start, "Lyon trip", tripTurns);
    chat(radar, start, "Too short", ["hi", "hello"]);
    const job = await summaryJob(radar);
    await job.run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 0, "not quiet yet: no model call");

    clock.advance(31 * 60_000);
    server.reply(ollamaText("The user plans a Lyon trip in March and will compare hotels."));
    await job.run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 1, "one call, only for the long conversation");
    // deno-lint-ignore no-explicit-any
    const body = server.chatRequests[0].body as any;
    assert.ok(!body.tools?.length, "tool-less");
    assert.match(body.messages[1].content, /<untrusted id="[^"]+" source="conversation">/);
    assert.match(body.messages[1].content, /User: Help me plan the Lyon trip/);

    await job.run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 1, "nothing new: zero calls");

    const recall = (await radar.agentStack()).registry.get("recall")!;
    const answer = String(await recall.run({ query: "hotels" }, context));
    assert.match(
      answer,
      /^\[summary of conversation "Lyon trip", 2026-11-23\] The user plans a Lyon trip/,
    );
  });
});

Deno.test("a conversation that grows is summarized again; events pending leave the model alone", async () => {
  await withRuntime("", async (radar, server, clock) => {
    const id = chat(radar, start, "Lyon trip", tripTurns);
    clock.advance(31 * 60_000);
    server.reply(ollamaText("First summary."), ollamaText("Second summary with the hotel choice."));
    const job = await summaryJob(radar);
    await job.run(clock.now(), AbortSignal.timeout(5000));
    radar.conversations.appendMessage(id, {
      role: "user",
      content: "I picked the Hotel Carlton",
      createdAt: clock.now(),
    });
    radar.queue.enqueue({ source: "watcher", kind: "file", summary: "a.pdf" }, clock.now());
    clock.advance(31 * 60_000);
    await job.run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 1, "events pending: the heartbeat comes first");
    const runId = radar.runs.recordSkipped("manual", clock.now(), 1, "test");
    radar.queue.markConsumed(radar.queue.pending(10).map((event) => event.id), runId, clock.now());
    await job.run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 2);
    // deno-lint-ignore no-explicit-any
    assert.match((server.chatRequests[1].body as any).messages[1].content, /Hotel Carlton/);
    const recall = (await radar.agentStack()).registry.get("recall")!;
    assert.match(String(await recall.run({ query: "hotel choice" }, context)), /Second summary/);
  });
});

Deno.test("a conversation stored before a secret was known is summarized masked, and stored masked", async () => {
  const secret = "Sum-Secret-6610-late";
  await withRuntime("", async (radar, server, clock) => {
    chat(radar, start, `Wifi ${secret}`, [
      `The router password is ${secret}, keep it in mind for the Lyon flat`,
      "Noted the router password.",
      `Also the guest network reuses ${secret}`,
      "Understood, same password for guests.",
    ]);
    // The secret becomes known after the conversation was stored (a source runs password_cmd).
    const read = await readPassword({ password_cmd: `echo ${secret}`, password_env: "" }, "home", {
      env: {},
      timeoutMs: 5000,
      secrets: radar.secrets,
    });
    assert.equal(read, secret);
    clock.advance(31 * 60_000);
    // A model that repeats the secret anyway (it may know it from elsewhere): stored masked.
    server.reply(ollamaText(`The user set up the Lyon flat wifi; the password is ${secret}.`));
    await (await summaryJob(radar)).run(clock.now(), AbortSignal.timeout(5000));
    assert.equal(server.chatRequests.length, 1);
    const body = JSON.stringify(server.chatRequests[0].body);
    assert.match(body, /User: The router password is \*{8}, keep it in mind/);
    assert.match(body, /Title: Wifi \*{8}/);
    assert.ok(!body.includes(secret), "the summary request never holds the secret");
    const db = openDatabase(radar.databasePath);
    try {
      const stored = new SqliteSummaryStore(db).search("wifi", 5);
      assert.equal(stored.length, 1);
      assert.equal(
        stored[0].content,
        "The user set up the Lyon flat wifi; the password is ********.",
      );
      assert.equal(stored[0].title, "Wifi ********");
    } finally {
      db.close();
    }
  });
});

Deno.test("with an embedding model, summaries get vectors over the model server", async () => {
  await withRuntime("  embedding_model: nomic-embed-text\n", async (radar, server, clock) => {
    chat(radar, start, "Lyon trip", tripTurns);
    clock.advance(31 * 60_000);
    server.reply(ollamaText("The user plans a Lyon trip in March and will compare hotels."));
    await (await summaryJob(radar)).run(clock.now(), AbortSignal.timeout(5000));
    const answer = String(
      await (await radar.agentStack()).registry.get("recall")!.run({ query: "march" }, context),
    );
    assert.match(answer, /summary of conversation "Lyon trip"/);
    const db = openDatabase(radar.databasePath);
    try {
      const row = db.prepare("SELECT COUNT(*) AS n FROM summary_embeddings").get() as { n: number };
      assert.equal(Number(row.n), 1);
    } finally {
      db.close();
    }
  });
});

Deno.test("recall finds a summary by meaning when no keyword matches", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-summary-meaning-" });
  const db = openDatabase(join(dir, "radar.db"));
  try {
    const conversations = new SqliteConversationStore(db);
    const id = conversations.createConversation("chat", "Lyon trip", start);
    const store = new SqliteSummaryStore(db);
    store.put({
      conversationId: id,
      title: "Lyon trip",
      content: "Plans for the holiday in March.",
      lastMessageId: 1,
      messageCount: 4,
      conversationAt: start.toISOString(),
      summarizedAt: start.toISOString(),
    });
    // A fake embedding model where "vacation" and "holiday" mean the same thing.
    const model: EmbeddingModel = {
      model: "fake-meaning",
      embed: (texts) =>
        Promise.resolve(texts.map((text) => /vacation|holiday/i.test(text) ? [1, 0] : [0, 1])),
    };
    const memory = new Recall([summarySource(store, new SqliteSummaryEmbeddings(db))], {
      model,
      warn: () => {},
      now: () => 0,
    });
    assert.equal(store.search("vacation", 5).length, 0, "no keyword match");
    const hits = await memory.search("vacation", 5);
    assert.equal(hits.length, 1);
    assert.match(hits[0].category, /^summary of conversation "Lyon trip", 2026-11-23$/);
    assert.deepEqual([hits[0].kind, hits[0].id], ["summary", id], "tagged, with its own id");
    assert.equal((await memory.search("weather", 5)).length, 0, "unrelated: not shown");
  } finally {
    db.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the transcript keeps the start and the end within its bound", () => {
  const messages: StoredMessage[] = Array.from({ length: 60 }, (_, index) => ({
    id: index + 1,
    conversationId: 1,
    role: index % 2 ? "assistant" : "user",
    content: `message ${index} ${"x".repeat(300)}`,
    createdAt: "",
  }));
  messages.push({ id: 99, conversationId: 1, role: "tool", content: "tool output", createdAt: "" });
  const transcript = summaryTranscript(messages);
  assert.ok(transcript.length <= transcriptBounds.totalChars + 100);
  assert.match(transcript, /^User: message 0 /);
  assert.match(transcript, /Assistant: message 59 x+$/);
  assert.match(transcript, /\[… \d+ messages left out …\]/);
  assert.doesNotMatch(transcript, /tool output/);
});

Deno.test("the transcript reads a long conversation once and keeps only what it shows", () => {
  let produced = 0;
  function* messages(): Generator<StoredMessage> {
    for (let index = 0; index < 20_000; index++) {
      produced++;
      yield {
        id: index + 1,
        conversationId: 1,
        role: index % 2 ? "assistant" : "user",
        content: `turn ${index} ${"y".repeat(80)}`,
        createdAt: "",
      };
    }
  }
  const transcript = summaryTranscript(messages());
  assert.equal(produced, 20_000);
  assert.ok(transcript.length <= transcriptBounds.totalChars + 100);
  const lines = transcript.split("\n");
  const marker = lines.findIndex((line) => line.startsWith("[…"));
  const leftOut = Number(/\[… (\d+) messages left out …\]/.exec(lines[marker])![1]);
  assert.equal(leftOut + lines.length - 1, 20_000, "every turn is shown or counted as left out");
  assert.match(lines[0], /^User: turn 0 /);
  assert.match(lines.at(-1)!, /^Assistant: turn 19999 /);
});

Deno.test("deleting a conversation deletes its summary: recall no longer finds it", async () => {
  await withRuntime("", async (radar, server, clock) => {
    const id = chat(radar, start, "Lyon trip", tripTurns);
    clock.advance(31 * 60_000);
    server.reply(ollamaText("The user plans a Lyon trip in March and will compare hotels."));
    await (await summaryJob(radar)).run(clock.now(), AbortSignal.timeout(5000));
    const recall = (await radar.agentStack()).registry.get("recall")!;
    assert.match(String(await recall.run({ query: "hotels" }, context)), /Lyon trip/);
    radar.conversations.delete(id);
    assert.match(String(await recall.run({ query: "hotels" }, context)), /^No memories match/);
  });
});
