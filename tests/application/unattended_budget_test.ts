/**
 * `budget:` on an injected clock: scheduled heartbeats and tasks pause once today's tokens (from
 * the run log) reach a limit, ONE notification goes out (not on later ticks, not after a
 * restart), runs a person starts still go, and everything resumes on the next local day. Each
 * model answer here costs 15 tokens (10 in, 5 out).
 */
import assert from "node:assert/strict";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { openTestDaemon, type TestDaemon } from "../helpers/test_radar.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { budgetStatusLines } from "../../src/cli/commands/budget_status.ts";
import { localDay } from "../../src/core/budget.ts";

const hour = 60 * 60_000;
const event = { source: "watcher", kind: "file_added", summary: "invoice.pdf arrived" };

function yaml(ntfyUrl: string, budget: string) {
  return `radar:
  timezone: "Europe/Berlin"
heartbeat:
  quiet_hours: null
notifications:
  ntfy:
    url: "${ntfyUrl}"
    topic: "radar-test"
budget:
${budget}
`;
}

async function tasksTick(daemon: TestDaemon) {
  await daemon.services.taskRunner.run(daemon.clock.now(), new AbortController().signal);
}

Deno.test("past budget.daily_tokens, scheduled runs pause with one notification and resume the next local day", async () => {
  const ntfy = startFakeNtfy();
  // 10:00 UTC = 11:00 in Berlin; the Berlin day ends at 23:00 UTC.
  let daemon = await openTestDaemon({
    now: "2026-11-23T10:00:00Z",
    yaml: yaml(ntfy.url, "  daily_tokens: 40"),
    steps: Array.from({ length: 3 }, () => textResponse("done")),
  });
  const dir = daemon.dir;
  try {
    const tasks = daemon.services.tasks;
    const a = await tasks.add({ every: "1h", message: "Check the plants" });
    const b = await tasks.add({ every: "1h", message: "Check the mail" });
    assert.ok(!("error" in a) && !("error" in b));
    daemon.clock.advance(hour);
    await tasksTick(daemon); // both run: 30 tokens
    daemon.services.queue.enqueue(event, daemon.clock.now());
    const first = await daemon.services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(first.outcome, "ran", first.reason); // 45 tokens: past the limit now
    assert.equal(daemon.model.requests.length, 3);

    daemon.clock.advance(hour);
    await tasksTick(daemon);
    daemon.services.queue.enqueue({ ...event, summary: "receipt.pdf arrived" }, daemon.clock.now());
    const paused = await daemon.services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(paused.outcome, "skipped");
    assert.equal(
      paused.reason,
      "paused by the budget: heartbeats, tasks, digests, summaries and money categories are paused: 45 of 40 tokens used today " +
        "(budget.daily_tokens); they resume at Tuesday, 24 Nov 2026, 00:00 UTC+01:00",
    );
    assert.equal(daemon.model.requests.length, 3, "no model call while paused");
    assert.equal(daemon.services.queue.pendingCount(), 1, "the event waits for tomorrow");
    await daemon.services.budget.sent();
    assert.equal(ntfy.requests.length, 1, "one notification");
    assert.equal(ntfy.requests[0].headers.title, "Radar paused unattended work");
    assert.match(
      ntfy.requests[0].body,
      /^Heartbeats, tasks, digests, summaries and money categories are paused: 45 of 40 tokens/,
    );
    const status = budgetStatusLines(daemon.runtime);
    assert.match(
      status[0],
      /^budget: {4}PAUSED — heartbeats, tasks, digests, summaries and money categories are paused: 45 of 40 tokens/,
    );

    for (let tick = 0; tick < 5; tick++) {
      daemon.clock.advance(15 * 60_000);
      await tasksTick(daemon);
      await daemon.services.heartbeat.tick({ trigger: "schedule" });
    }
    await daemon.services.budget.sent();
    assert.equal(ntfy.requests.length, 1, "never twice on later ticks");
    const [record] = daemon.services.tasks.list();
    assert.equal(record.nextRunAt, "2026-11-23T12:00:00.000Z", "a paused task stays due");

    // A person's run still goes: run-now and a manual heartbeat.
    daemon.model.push(textResponse("by hand"));
    const manual = await daemon.services.taskRunner.runTask(
      daemon.services.tasks.store.get(a.id)!,
      "manual",
    );
    assert.equal(manual.outcome, "ran");

    // A restart (another process on the same data) does not notify again.
    const restarted = await daemon.reopen();
    daemon.close();
    daemon = restarted;
    await tasksTick(daemon);
    assert.equal(
      (await daemon.services.heartbeat.tick({ trigger: "schedule" })).reason.startsWith(
        "paused by the budget",
      ),
      true,
    );
    await daemon.services.budget.sent();
    assert.equal(ntfy.requests.length, 1, "never twice after a restart");

    // Midnight in Berlin: a new day, a new budget.
    daemon.clock.set(new Date("2026-11-23T23:00:30Z"));
    daemon.model.push(...Array.from({ length: 3 }, () => textResponse("new day")));
    await tasksTick(daemon);
    const resumed = await daemon.services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(resumed.outcome, "ran", resumed.reason);
    assert.equal(daemon.services.queue.pendingCount(), 0);
    assert.equal(daemon.model.requests.length, 3, "both tasks and the heartbeat ran");
    const [today, yesterday] = daemon.services.budget.report().days;
    const none = { summaryTokens: 0, digestTokens: 0, moneyTokens: 0, visionTokens: 0 };
    assert.deepEqual(today, { day: "2026-11-24", heartbeatTokens: 15, taskTokens: 30, ...none });
    assert.deepEqual(yesterday, {
      day: "2026-11-23",
      heartbeatTokens: 15,
      taskTokens: 45,
      ...none,
    });
  } finally {
    daemon.close();
    Deno.removeSync(dir, { recursive: true });
    await ntfy.close();
  }
});

Deno.test("budget.task_daily_tokens pauses only the task that spent it, once, until the next day", async () => {
  const ntfy = startFakeNtfy();
  const daemon = await openTestDaemon({
    now: "2026-11-23T10:00:00Z",
    yaml: yaml(ntfy.url, "  task_daily_tokens: 20"),
    steps: Array.from({ length: 4 }, () => textResponse("done")),
  });
  try {
    const tasks = daemon.services.tasks;
    const busy = await tasks.add({ every: "1h", message: "Busy task" });
    assert.ok(!("error" in busy));
    daemon.clock.advance(hour);
    await tasksTick(daemon); // 15
    daemon.clock.advance(hour);
    await tasksTick(daemon); // 30: past 20 after this run
    const quiet = await tasks.add({ every: "1h", message: "Quiet task" });
    assert.ok(!("error" in quiet));
    daemon.clock.advance(hour);
    await tasksTick(daemon); // busy paused, quiet runs
    daemon.clock.advance(hour);
    await tasksTick(daemon); // busy paused, quiet runs again (30)
    const asked = daemon.model.requests.map((request) => request.messages.at(-1)!.content);
    assert.equal(asked.filter((text) => text.endsWith("Busy task")).length, 2);
    assert.equal(asked.filter((text) => text.endsWith("Quiet task")).length, 2);
    await daemon.services.budget.sent();
    assert.deepEqual(
      ntfy.requests.map((request) => request.body.split(";")[0]),
      [`Task #${busy.id} is paused: 30 of 20 tokens used today (budget.task_daily_tokens)`],
    );
    const report = daemon.services.budget.report();
    assert.deepEqual(report.byTask, [
      { taskId: busy.id, tokens: 30, paused: true },
      { taskId: quiet.id, tokens: 30, paused: true },
    ]);
    assert.equal(report.taskTokens, 60);
    assert.equal(report.days.length, 7);
    assert.deepEqual(report.days[0], {
      day: "2026-11-23",
      heartbeatTokens: 0,
      taskTokens: 60,
      summaryTokens: 0,
      digestTokens: 0,
      moneyTokens: 0,
      visionTokens: 0,
    });

    assert.match(
      budgetStatusLines(daemon.runtime).join("\n"),
      new RegExp(
        `; at most 20 a task\n  task #${busy.id} PAUSED: 30 of 20 tokens today; it resumes at Tuesday`,
      ),
    );

    daemon.clock.set(new Date("2026-11-24T05:00:00Z"));
    daemon.model.push(textResponse("again"), textResponse("again"));
    await tasksTick(daemon);
    assert.equal(daemon.model.requests.length, 6, "both run on the new day");
    await daemon.services.budget.sent();
    assert.equal(ntfy.requests.length, 1, "nothing more to say");
  } finally {
    daemon.close();
    Deno.removeSync(daemon.dir, { recursive: true });
    await ntfy.close();
  }
});

Deno.test("a local day is 23 or 25 hours when the clocks change", () => {
  const spring = localDay(new Date("2026-03-29T12:00:00Z"), "Europe/Berlin");
  assert.equal(spring.start.toISOString(), "2026-03-28T23:00:00.000Z");
  assert.equal(spring.end.toISOString(), "2026-03-29T22:00:00.000Z");
  const autumn = localDay(new Date("2026-10-25T12:00:00Z"), "Europe/Berlin");
  assert.equal(autumn.end.getTime() - autumn.start.getTime(), 25 * hour);
  assert.equal(localDay(new Date("2026-11-23T02:00:00Z"), "America/Los_Angeles").key, "2026-11-22");
});
