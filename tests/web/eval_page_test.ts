/** /eval lists both suites per model: a proactive run shows its false alarms and misses apart. */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEvalStore } from "../../src/adapters/sqlite/eval_store.ts";
import { createWebFixture } from "./web_fixture.ts";

Deno.test("the eval page shows a proactive run's decisions, false alarms and misses", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-eval-page-" });
  const db = openDatabase(`${directory}/radar.db`);
  const history = new SqliteEvalStore(db);
  const fixture = createWebFixture({ extra: { evalRuns: history } });
  try {
    const run = {
      startedAt: "2026-11-22T09:00:00.000Z",
      server: "http://127.0.0.1:11434",
      tasks: 25,
      toolsRight: 13,
      toolResponses: 24,
      leakedResponses: 0,
      promptTokens: 900,
      completionTokens: 100,
      medianLatencyMs: 1500,
      durationMs: 40_000,
    };
    history.add({ ...run, model: "small", passed: 11, outcomes: [] });
    const id = history.add({
      ...run,
      model: "trigger-happy",
      passed: 13,
      suite: "proactive",
      falseAlarms: 10,
      misses: 0,
      outcomes: [{
        id: "newsletter",
        pass: false,
        reason: "should have stayed quiet, did notify",
        toolCalls: ["notify"],
        toolsRight: false,
        toolResponses: 1,
        leakedResponses: 0,
        promptTokens: 40,
        completionTokens: 4,
        latencyMs: 1500,
        expected: "quiet",
        decision: "notify",
      }],
    });
    const page = await (await fixture.app.request("/eval")).text();
    assert.match(
      page,
      /<td>proactive<\/td><td>13\/25 \(52 %\)<\/td><td>10 false alarm\(s\)<\/td><td>0 miss\(es\)<\/td>/,
    );
    assert.match(page, /<td>tasks<\/td><td>11\/25 \(44 %\)<\/td>/);
    const detail = await (await fixture.app.request(`/eval/${id}`)).text();
    assert.match(detail, /proactive: decisions right 13\/25 \(52 %\) · false alarms 10 · misses 0/);
    assert.match(detail, /<td>quiet · notify<\/td>/);
  } finally {
    fixture.close();
    db.close();
    Deno.removeSync(directory, { recursive: true });
  }
});
