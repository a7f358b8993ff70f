/**
 * `budget:` counts the unattended model calls that are not heartbeat or task runs — conversation
 * summaries and digests — with the tokens the server reported (the fake LLM server answers with
 * Ollama's recorded /api/chat body: 11 prompt + 18 completion tokens unless a test changes them).
 * `radar task log` and `radar status` show them; past the daily limit a scheduled summary or
 * digest waits like a heartbeat (the budget's ONE notification per limit and day), and a waiting
 * digest is written once the budget resumes. A person's `radar digest now` is never paused.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/adapters/clock.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { runCli } from "../../src/cli/program.ts";
import { budgetStatusLines } from "../../src/cli/commands/budget_status.ts";
import { type FakeReply, ollamaText } from "../fakes/fake_llm_server.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { noRetriesYaml, withFakeLlmHome } from "../helpers/fake_llm_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";

const minute = 60_000;
const day = 24 * 60 * minute;

function yaml(ntfyUrl: string, dailyTokens: number): string {
  return `${noRetriesYaml}plugins:
  enabled: false
radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
notifications:
  ntfy:
    url: "${ntfyUrl}"
    topic: "radar-test"
digests:
  daily: true
  hour: 6
budget:
  daily_tokens: ${dailyTokens}
`;
}

/** A digest answer with other (real-sized) usage numbers than the fixture's. */
function digestReply(content: string, prompt: number, completion: number): FakeReply {
  const reply = ollamaText(content);
  const body = reply.body as Record<string, unknown>;
  body.prompt_eval_count = prompt;
  body.eval_count = completion;
  return reply;
}

function chat(radar: Radar, at: Date, title: string, turns: number): number {
  const id = radar.conversations.createConversation("chat", title, at);
  for (let index = 0; index < turns; index++) {
    radar.conversations.appendMessage(id, {
      role: index % 2 ? "assistant" : "user",
      content: `${title}: message ${index + 1}`,
      createdAt: at,
    });
  }
  return id;
}

async function job(radar: Radar, name: string) {
  const found = (await radar.tickJobs()).find((candidate) => candidate.name === name);
  assert.ok(found, `${name} is a tick job`);
  return found;
}

async function runJob(radar: Radar, clock: ManualClock, name: string): Promise<void> {
  await (await job(radar, name)).run(clock.now(), AbortSignal.timeout(10_000));
}

Deno.test("summaries and digests count in budget.daily_tokens and the task log; past it they wait with one notification", async () => {
  const ntfy = startFakeNtfy();
  // Today (UTC) at 10:00, so the CLI's own clock sees the same day in `radar task log`.
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T10:00:00Z`);
  const clock = new ManualClock(today);
  try {
    await withFakeLlmHome(
      { prefix: "radar-background-budget-", yaml: yaml(ntfy.url, 500), clock },
      async (home) => {
        const radar = await home.open();
        try {
          chat(radar, new Date(today.getTime() - day), "Yesterday's plans", 2);
          chat(radar, today, "Lyon trip", 4);
          clock.advance(31 * minute);

          home.server.reply(ollamaText("The user plans a Lyon trip."));
          await runJob(radar, clock, "conversation summaries");
          home.server.reply(digestReply("- Planned the week", 412, 96));
          await runJob(radar, clock, "digests");
          assert.equal(home.server.chatRequests.length, 2);

          const report = radar.budget.report();
          assert.equal(report.summaryTokens, 29, "11 + 18 from the server's usage");
          assert.equal(report.digestTokens, 508, "412 + 96");
          assert.equal(report.days[0].summaryTokens, 29);
          assert.equal(report.days[0].digestTokens, 508);
          assert.equal(report.paused?.used, 537, "537 of 500: the daily limit is spent");
          assert.match(
            budgetStatusLines(radar).join("\n"),
            /PAUSED — heartbeats, tasks, digests, summaries and money categories are paused: 537 of 500 tokens/,
          );

          // `radar task log` (its own process's clock: today) shows both kinds.
          const io = memoryIo(home.env, { cwd: home.folder });
          assert.equal(await runCli(["task", "log"], io), 0, io.err.join(""));
          assert.match(
            io.out.join(""),
            /heartbeats {9}0 {2}tasks {9}0 {2}summaries {8}29 {2}digests {7}508 {2}money {9}0 {2}vision {9}0 {2}total {7}537 {2}\(today\)/,
          );
          const jsonIo = memoryIo(home.env, { cwd: home.folder });
          assert.equal(await runCli(["task", "log", "--json"], jsonIo), 0);
          const json = JSON.parse(jsonIo.out.join(""));
          assert.equal(json.budget.summaryTokens, 29);
          assert.equal(json.budget.digestTokens, 508);

          // Past the limit: a new quiet conversation waits; so does the heartbeat; ONE notice.
          chat(radar, clock.now(), "Dentist", 4);
          clock.advance(31 * minute);
          await runJob(radar, clock, "conversation summaries");
          radar.queue.enqueue(
            { source: "watcher", kind: "file_added", summary: "invoice.pdf arrived" },
            clock.now(),
          );
          const heartbeat = await radar.heartbeat.tick({ trigger: "schedule" });
          assert.equal(heartbeat.outcome, "skipped");
          clock.advance(15 * minute);
          await runJob(radar, clock, "conversation summaries");
          assert.equal(home.server.chatRequests.length, 2, "no model call while paused");
          await radar.budget.sent();
          assert.equal(ntfy.requests.length, 1, "one notification for the limit and day");
          assert.match(
            ntfy.requests[0].body,
            /^Heartbeats, tasks, digests, summaries and money categories are paused: 537 of 500 tokens/,
          );

          // A person's digest is never paused (and is not unattended spending).
          home.server.reply(ollamaText("- by hand"));
          const midnight = new Date(today.getTime() - 10 * 60 * minute);
          await radar.digests.write("day", new Date(midnight.getTime() - day), midnight);
          assert.equal(home.server.chatRequests.length, 3);
          assert.equal(radar.budget.report().digestTokens, 508);

          // The next local day: the waiting event, then the waiting summary (it lets the
          // heartbeat go first).
          clock.set(new Date(today.getTime() + 14 * 60 * minute + 30_000));
          home.server.reply(ollamaText("Noted the invoice."));
          assert.equal((await radar.heartbeat.tick({ trigger: "schedule" })).outcome, "ran");
          home.server.reply(ollamaText("The user booked the dentist."));
          await runJob(radar, clock, "conversation summaries");
          assert.equal(home.server.chatRequests.length, 5);
          const next = radar.budget.report();
          assert.equal(next.summaryTokens, 29, "a new day's budget");
          assert.equal(next.heartbeatTokens, 29);
          await radar.budget.sent();
          assert.equal(ntfy.requests.length, 1, "never twice");
        } finally {
          radar.close();
        }
      },
    );
  } finally {
    await ntfy.close();
  }
});

Deno.test("a digest the budget held back is written on the first tick after the budget resumes", async () => {
  const ntfy = startFakeNtfy();
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  try {
    await withFakeLlmHome(
      { prefix: "radar-digest-budget-", yaml: yaml(ntfy.url, 20), clock },
      async (home) => {
        const radar = await home.open();
        try {
          chat(radar, new Date("2026-11-22T15:00:00Z"), "Sunday chores", 2);
          chat(radar, clock.now(), "Lyon trip", 4);
          clock.advance(31 * minute);
          home.server.reply(ollamaText("The user plans a Lyon trip."));
          await runJob(radar, clock, "conversation summaries"); // 29 of 20: spent
          await runJob(radar, clock, "digests");
          assert.equal(home.server.chatRequests.length, 1, "the digest waits");
          assert.deepEqual(radar.digests.list(5), []);
          await radar.budget.sent();
          assert.equal(ntfy.requests.length, 1);

          // Just after midnight "yesterday" is another day; the held-back digest still comes.
          clock.set(new Date("2026-11-24T00:00:30Z"));
          home.server.reply(digestReply("- Sunday chores done", 300, 40));
          await runJob(radar, clock, "digests");
          assert.equal(home.server.chatRequests.length, 2);
          const [digest] = radar.digests.list(5);
          assert.equal(digest.startsAt, "2026-11-22T00:00:00.000Z");
          assert.equal(digest.content, "- Sunday chores done");
          assert.equal(radar.budget.report().digestTokens, 340);
        } finally {
          radar.close();
        }
      },
    );
  } finally {
    await ntfy.close();
  }
});
