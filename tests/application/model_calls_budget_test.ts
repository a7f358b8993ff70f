/**
 * Every model call counts against `budget:`: money categorisation and vision calls (here a
 * scanned page read by `pdf_extract`) are recorded with the server's usage beside summaries and
 * digests, `radar task log` shows them, and past the daily limit the daemon's categorisation
 * waits (its transactions stay pending, no model call).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { type FakeReply, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { withFakeLlmRadar } from "../helpers/fake_llm_home.ts";
import { camt053 } from "../helpers/statement_fixtures.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";
import { UnattendedBudget } from "../../src/application/unattended_budget.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import type { ChatModel } from "../../src/core/chat_model.ts";
import { silentLogger } from "../../src/core/ports.ts";

const yaml = `plugins:
  enabled: false
radar:
  timezone: "UTC"
llm:
  retries: 0
  models:
    vision:
      model: llava-tiny
money:
  categories: [groceries, other]
  batch_size: 2
budget:
  daily_tokens: 80
`;

/** `reply` with the usage the server reports set to `prompt` + `completion` tokens. */
function costing(reply: FakeReply, prompt: number, completion: number): FakeReply {
  const body = reply.body as Record<string, unknown>;
  body.prompt_eval_count = prompt;
  body.eval_count = completion;
  return reply;
}

Deno.test("money categorisation and vision calls count in the budget; past it categorisation waits", async () => {
  const clock = new ManualClock(new Date("2026-04-02T09:00:00Z"));
  await withFakeLlmRadar({ prefix: "radar-model-calls-", yaml, clock }, async (radar, home) => {
    const statement = join(home.folder, "march.xml");
    Deno.writeTextFileSync(
      statement,
      camt053(Array.from({ length: 6 }, (_, index) => ({
        date: "2026-03-02",
        amount: "-42.10",
        payee: `REWE Markt ${index}`,
        id: `R${index}`,
      }))),
    );
    await (await radar.money()).import({ path: statement, useModel: false });
    const job = (await radar.tickJobs()).find((candidate) => candidate.name === "money")!;
    const batch = () =>
      costing(
        ollamaToolCall("set_categories", {
          items: [{ n: 1, category: "groceries" }, { n: 2, category: "groceries" }],
        }),
        20,
        9,
      );

    // A tick asks about two batches, 20 + 9 tokens each.
    home.server.reply(batch(), batch());
    await job.run(clock.now(), new AbortController().signal);
    assert.equal(home.server.chatRequests.length, 2);
    let report = radar.budget.report();
    assert.equal(report.moneyTokens, 58);
    assert.equal(report.paused, undefined, "58 of 80");

    // A scanned page read by the vision model (a person's chat run: counted all the same).
    Deno.writeFileSync(join(home.folder, "scan.pdf"), buildPdf([{ image: true }]));
    home.server.reply(costing(ollamaText("INVOICE 4711"), 25, 4));
    const execution = await (await radar.agentStack()).registry.execute(
      { id: "1", name: "pdf_extract", arguments: JSON.stringify({ path: "~/scan.pdf" }) },
      {
        offered: new Set(["pdf_extract"]),
        context: { kind: "chat", interactive: false, signal: new AbortController().signal },
        maxResultChars: 10_000,
        elapsed: () => 0,
      },
    );
    assert.match(execution.result.text, /INVOICE 4711/);
    assert.equal(home.server.chatRequests.length, 3);
    report = radar.budget.report();
    assert.equal(report.visionTokens, 29);
    assert.equal(report.paused?.used, 87, "58 + 29 of 80: spent");

    // Past the limit the daemon's categorisation waits: no model call, the rest stays pending.
    clock.advance(60 * 60_000);
    home.server.reply(batch());
    await job.run(clock.now(), new AbortController().signal);
    assert.equal(home.server.chatRequests.length, 3, "no categorisation past the budget");
    assert.equal((await radar.money()).transactions({ limit: 10, uncategorized: true }).length, 2);
  });
});

Deno.test("a model call whose server reports no usage counts by Radar's estimate, images included", async () => {
  const recorded: Array<{ kind: string; promptTokens: number; completionTokens: number }> = [];
  const budget = new UnattendedBudget({
    config: defaultConfig(),
    runs: { spentSince: () => [], recordBackgroundCall: (call) => void recorded.push(call) },
    clock: new ManualClock(new Date("2026-04-02T09:00:00Z")),
    logger: silentLogger,
  });
  const silent: ChatModel = {
    provider: "test",
    model: "llava-tiny",
    status: () => Promise.reject(new Error("unused")),
    chat: () => Promise.resolve({ content: "INVOICE 4711", toolCalls: [] }),
  };
  const counted = budget.counted("vision", silent);
  assert.equal(counted.model, "llava-tiny");
  await counted.chat({
    messages: [{ role: "user", content: "Transcribe this page.", images: ["iVBORw0KGgo="] }],
    tools: [],
    temperature: 0,
  });
  assert.equal(recorded.length, 1);
  assert.equal(recorded[0].kind, "vision");
  assert.ok(
    recorded[0].promptTokens >= 1_500,
    `an image costs ~1,500: ${recorded[0].promptTokens}`,
  );
  assert.ok(recorded[0].completionTokens > 0);
});
