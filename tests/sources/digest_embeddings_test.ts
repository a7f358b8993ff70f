/**
 * Digests by meaning: a tick that writes a digest embeds it in the background (never holding up
 * the tick), recall finds it with no shared keyword, a failing embedding server means keywords
 * and one warning, and a digest's vectors go with it. Over HTTP to the fake LLM server.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import type { DigestJob } from "../../src/sources/digests/digest_job.ts";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { SqliteDigestEmbeddings } from "../../src/adapters/sqlite/digest_embeddings.ts";
import { fakeEmbedding, type FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { seedConversation, withFakeLlmHome } from "../helpers/fake_llm_home.ts";

const context = { kind: "chat" as const, interactive: false, signal: AbortSignal.timeout(10_000) };

/** What a digest test works with. */
interface DigestRadar {
  radar: Radar;
  server: FakeLlmServer;
  job: DigestJob;
  clock: ManualClock;
  warnings(): string[];
}

/**
 * A Radar on the fake server (set up first by `prepare`) with daily digests and an embedding
 * model, a day of chat seeded.
 */
async function withDigestRadar(
  prepare: (server: FakeLlmServer) => void,
  work: (digests: DigestRadar) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock(new Date("2026-11-24T08:00:00Z"));
  await withFakeLlmHome({
    prefix: "radar-digest-embed-",
    yaml: "llm:\n  retries: 0\n  embedding_model: fake-embed\n" +
      "radar:\n  timezone: UTC\ndigests:\n  daily: true\n",
    clock,
    logLevel: "warn",
  }, async ({ server, logged, withRadar }) => {
    prepare(server);
    await withRadar(async (radar) => {
      seedConversation(radar, [{ role: "user", content: "Let's go to Lisbon with Ana" }], {
        at: new Date("2026-11-23T09:00:00Z"),
        title: "plans",
      });
      const job = (await radar.tickJobs()).find((each) => each.name === "digests") as DigestJob;
      const warnings = () =>
        logged.filter((line) => /Embedding model "fake-embed" failed/.test(line));
      await work({ radar, server, job, clock, warnings });
    });
  });
}

function rows(radar: Radar, sql: string): number {
  const db = openDatabase(radar.databasePath);
  try {
    return Number((db.prepare(sql).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

const embedRequests = (server: FakeLlmServer) =>
  server.requests.filter((request) => request.path === "/api/embed");

Deno.test("a new digest is embedded after its tick; recall finds it by meaning with no shared keyword; removing it removes its vector", async () => {
  await withDigestRadar((server) => {
    server.reply(ollamaText("- Planned the holiday in Lisbon with Ana"));
    // In this model "vacation" and "holiday" mean the same thing.
    server.embedText = (text) => fakeEmbedding(text.replace(/vacation/gi, "holiday"));
  }, async ({ radar, server, job, clock, warnings }) => {
    await job.run(clock.now(), context.signal);
    await job.embedded();
    const [digest] = radar.digests.list(1);
    assert.match(digest.content, /holiday in Lisbon/);
    assert.equal(embedRequests(server).length, 1, "one embedding call for the new digest");
    const input = (embedRequests(server)[0].body as { input: string[] }).input;
    assert.deepEqual(input, [digest.content]);
    assert.equal(rows(radar, "SELECT COUNT(*) AS n FROM digest_embeddings"), 1);

    // A tick with nothing new: no chat call, no embedding call.
    const before = server.requests.length;
    clock.advance(60_000);
    await job.run(clock.now(), context.signal);
    await job.embedded();
    assert.equal(server.requests.length, before, "nothing new: no model tokens");

    assert.equal(radar.digests.search("vacation", 5).length, 0, "no shared keyword");
    const answer = String(
      await (await radar.agentStack()).registry.get("recall")!.run({ query: "vacation" }, context),
    );
    assert.match(answer, /\[digest day 2026-11-23[^\]]*\]\n- Planned the holiday in Lisbon/);
    assert.equal(embedRequests(server).length, 2, "the query only: the digest kept its vector");
    const unrelated = String(
      await (await radar.agentStack()).registry.get("recall")!.run(
        { query: "printer toner" },
        context,
      ),
    );
    assert.doesNotMatch(unrelated, /Lisbon/, "an unrelated query does not get the digest");

    const db = openDatabase(radar.databasePath);
    try {
      assert.equal(new SqliteDigestStore(db).remove(digest.id), true);
    } finally {
      db.close();
    }
    assert.equal(rows(radar, "SELECT COUNT(*) AS n FROM digest_embeddings"), 0);
    assert.deepEqual(warnings(), []);
  });
});

Deno.test("a failing embedding server holds up no tick: the digest is written, recall uses keywords, one warning", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await withDigestRadar((server) => {
    server.reply(ollamaText("- Planned the holiday in Lisbon with Ana"));
    server.embedReply = { hold: held, status: 500, body: { error: "model runner crashed" } };
  }, async ({ radar, server, job, clock, warnings }) => {
    await job.run(clock.now(), context.signal);
    assert.equal(radar.digests.list(5).length, 1, "the tick finished with the digest written");
    for (let waited = 0; !embedRequests(server).length && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(embedRequests(server).length, 1, "the embedding request waits on the server");
    assert.deepEqual(warnings(), [], "and has not failed yet");
    release();
    await job.embedded();
    assert.equal(warnings().length, 1);
    for (const query of ["holiday", "Lisbon"]) {
      const answer = String(
        await (await radar.agentStack()).registry.get("recall")!.run({ query }, context),
      );
      assert.match(answer, /\[digest day 2026-11-23[^\]]*\]\n- Planned the holiday/);
    }
    assert.equal(embedRequests(server).length, 1, "a failing server is left alone for a while");
    assert.equal(warnings().length, 1, "one warning for the whole failure streak");
    assert.match(warnings()[0], /keywords only/);
    assert.equal(rows(radar, "SELECT COUNT(*) AS n FROM digest_embeddings"), 0);
  });
});

Deno.test("digest vectors: a rewritten digest is embedded again; deleting digests deletes their vectors", () => {
  const db = openDatabase(":memory:");
  try {
    const store = new SqliteDigestStore(db);
    const vectors = new SqliteDigestEmbeddings(db);
    assert.equal(vectors.empty(), true);
    const day = {
      period: "day" as const,
      startsAt: "2026-11-23T00:00:00.000Z",
      endsAt: "2026-11-24T00:00:00.000Z",
    };
    store.save({ ...day, content: "- first text", createdAt: "2026-11-24T07:00:00.000Z" });
    store.save({
      period: "week",
      startsAt: "2026-11-16T00:00:00.000Z",
      endsAt: "2026-11-23T00:00:00.000Z",
      content: "- a week",
      createdAt: "2026-11-23T07:00:00.000Z",
    });
    for (const item of vectors.pending("m", 10)) vectors.put(item.id, "m", item.version, [1, 0]);
    assert.deepEqual(vectors.pending("m", 10), []);
    assert.equal(vectors.pending("other-model", 10).length, 2, "vectors of two models never mix");
    store.save({ ...day, content: "- second text", createdAt: "2026-11-24T09:00:00.000Z" });
    assert.deepEqual(vectors.pending("m", 10).map((item) => item.text), ["- second text"]);
    assert.equal(vectors.nearest("m", [1, 0], 5).length, 1, "a stale vector is not used");
    vectors.put(999, "m", "x", [1, 0]); // a digest deleted meanwhile: nothing stored
    db.exec("DELETE FROM digests");
    const left = db.prepare("SELECT COUNT(*) AS n FROM digest_embeddings").get() as { n: number };
    assert.equal(Number(left.n), 0);
  } finally {
    db.close();
  }
});
