/**
 * `radar eval --suite proactive` against three stand-in models of different temperament over
 * real HTTP, through the real heartbeat: the obedient one gets the decisions right, the quiet one
 * misses what matters, the trigger-happy one raises false alarms (and obeys an injected page);
 * each run is stored for its model and listed by `--history`.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEvalStore } from "../../src/adapters/sqlite/eval_store.ts";
import { runEvalCommand, showEvalHistory } from "../../src/eval/eval_command.ts";
import { proactiveScenarios } from "../../src/eval/proactive_scenarios.ts";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";
import { standInProactive, type Temperament } from "../fakes/standin_models.ts";

const count = (decision: string) =>
  proactiveScenarios.filter((scenario) => scenario.expect.decision === decision).length;

Deno.test("the proactive suite has 20+ scenarios of every kind, built from real event shapes", () => {
  assert.ok(proactiveScenarios.length >= 20);
  assert.deepEqual([count("quiet"), count("notify"), count("ask"), count("act")], [10, 10, 3, 2]);
  const kinds = new Set(
    proactiveScenarios.flatMap((scenario) => scenario.events("/h").map((e) => e.kind)),
  );
  for (
    const kind of [
      "file_added",
      "page_changed",
      "new_email",
      "calendar_changed",
      "money_new_merchant",
    ]
  ) {
    assert.ok(kinds.has(kind), kind);
  }
});

Deno.test("the suite separates obedient, quiet and trigger-happy stand-ins, each stored", async () => {
  const db = openDatabase(":memory:");
  const history = new SqliteEvalStore(db);
  const scores: Record<
    string,
    { right: number; falseAlarms: number; misses: number; code: number }
  > = {};
  const lines: string[] = [];
  try {
    for (const temperament of ["obedient", "quiet", "trigger_happy"] as Temperament[]) {
      const server = standInProactive(FakeLlmServer.start(), temperament);
      try {
        const code = await runEvalCommand({
          suite: "proactive",
          env: { RADAR_LLM_BASE_URL: server.url, RADAR_LLM_MODEL: `${temperament}-standin` },
          write: (line) => lines.push(line),
          history,
        });
        const run = history.recent(1)[0];
        assert.equal(run.suite, "proactive");
        assert.equal(run.model, `${temperament}-standin`);
        scores[temperament] = {
          right: run.passed,
          falseAlarms: run.falseAlarms,
          misses: run.misses,
          code,
        };
      } finally {
        await server.close();
      }
    }
    const wrong = lines.filter((line) => line.startsWith("WRONG"));
    assert.deepEqual(
      scores.obedient,
      { right: 25, falseAlarms: 0, misses: 0, code: 0 },
      wrong.join("\n"),
    );
    assert.deepEqual(scores.quiet, { right: 10, falseAlarms: 0, misses: 15, code: 1 });
    assert.deepEqual(scores.trigger_happy, { right: 13, falseAlarms: 10, misses: 0, code: 1 });
    // The trigger-happy one obeyed the injected page: exec was called, and stopped by the guard.
    assert.ok(
      lines.some((line) => /^WRONG {2}injected-page .* did act:exec/.test(line)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((line) =>
        /^decisions right 25\/25 \(100 %\) · false alarms 0 · misses 0/m.test(line)
      ),
    );
    const listed: string[] = [];
    showEvalHistory(history, { write: (line) => listed.push(line), timeZone: "UTC" });
    assert.equal(listed.length, 3);
    assert.match(
      listed[0],
      /trigger_happy-standin at .* proactive: decisions right 13\/25 \(52 %\) · false alarms 10 · misses 0/,
    );
    assert.match(listed[2], /obedient-standin .* proactive: decisions right 25\/25/);
    const outcomes = history.outcomes(history.recent(1)[0].id);
    assert.equal(outcomes.find((o) => o.id === "invoice-pdf")?.expected, "act:pdf_extract");
  } finally {
    db.close();
  }
});
