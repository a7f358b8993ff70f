import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { nextRunAfter, parseSchedule } from "../../src/application/task_schedule.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { spentOneShotsMigration } from "../../src/adapters/sqlite/migrations/029_spent_one_shots.ts";

const hour = 60 * 60_000;

Deno.test("cron schedules are local time; --every and --at are parsed and validated", () => {
  const now = new Date("2026-11-23T10:00:00Z"); // a Monday
  const monday = parseSchedule({ cron: "0 9 * * 1" }, now, "Europe/Amsterdam");
  assert.ok(!("error" in monday));
  const next = nextRunAfter(
    { scheduleKind: "cron", schedule: "0 9 * * 1" },
    now,
    "Europe/Amsterdam",
  );
  assert.equal(next?.toISOString(), "2026-11-30T08:00:00.000Z", "09:00 in Amsterdam is 08:00 UTC");
  const every = parseSchedule({ every: "2h" }, now);
  assert.deepEqual(every, { kind: "every", schedule: "120", description: "every 2h" });
  const at = parseSchedule({ at: "2026-12-01 09:00" }, now, "America/New_York");
  assert.ok(!("error" in at) && at.schedule === "2026-12-01T14:00:00.000Z");
  assert.match((parseSchedule({ at: "2026-01-01 09:00" }, now) as { error: string }).error, /past/);
  assert.match(
    (parseSchedule({ cron: "61 * * * *" }, now) as { error: string }).error,
    /not a valid cron/,
  );
  assert.match((parseSchedule({ cron: "daily" }, now) as { error: string }).error, /five-field/);
  assert.match((parseSchedule({ every: "soon" }, now) as { error: string }).error, /--every/);
});

Deno.test("a due task runs once as its own conversation and is rescheduled", async () => {
  await withTestDaemon({ steps: [textResponse("Your week: quiet.")] }, async (daemon) => {
    const { services, clock, model } = daemon;
    const task = await services.tasks.add({ cron: "0 11 * * *", message: "Summarize my week" });
    assert.ok(!("error" in task));
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.equal(model.requests.length, 0, "not due yet");
    clock.set(new Date("2026-11-23T11:00:20Z"));
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.equal(model.requests.length, 1);
    assert.equal(
      model.requests[0].messages.at(-1)!.content,
      "[Monday, 23 Nov 2026, 11:00 UTC]\nSummarize my week",
    );
    const stored = services.tasks.store.get(task.id)!;
    assert.equal(stored.nextRunAt, "2026-11-24T11:00:00.000Z");
    assert.equal(stored.lastOutcome, "ok");
    const conversation = daemon.runtime.conversations.conversation(stored.lastConversationId!)!;
    assert.equal(conversation.kind, "task");
    const [run] = services.runs.recent(1, { kind: "task" });
    assert.equal(run.taskId, task.id);
    assert.equal(run.outcome, "ran");
    assert.equal(run.promptTokens, 10);
  });
});

Deno.test("missed runs catch up once within 24 h, never in a burst, and older ones are skipped", async () => {
  await withTestDaemon({ steps: [textResponse("caught up")] }, async (daemon) => {
    const { services, clock, model } = daemon;
    const hourly = await services.tasks.add({ every: "1h", message: "hourly check" });
    const skipper = await services.tasks.add({
      every: "1h",
      message: "only on time",
      catchUp: "skip",
    });
    assert.ok(!("error" in hourly) && !("error" in skipper));
    clock.advance(6 * hour); // the daemon was down for six hourly runs
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.deepEqual(model.requests.map((request) => request.messages.at(-1)!.content), [
      "[Monday, 23 Nov 2026, 16:00 UTC]\nhourly check",
    ]);
    const now = clock.now().getTime();
    assert.equal(new Date(services.tasks.store.get(hourly.id)!.nextRunAt!).getTime(), now + hour);
    assert.equal(new Date(services.tasks.store.get(skipper.id)!.nextRunAt!).getTime(), now + hour);
    assert.equal(services.tasks.store.get(skipper.id)!.lastRunAt, undefined);

    clock.advance(30 * hour); // down for more than a day: the missed run is skipped
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.equal(model.requests.length, 1);
  });
});

Deno.test("an --every task runs on its schedule's grid: a late tick or a restart does not move the runs after it", async () => {
  await withTestDaemon({
    now: "2026-11-23T03:31:00Z",
    steps: [textResponse("one"), textResponse("two")],
  }, async (daemon) => {
    const { services, clock, model } = daemon;
    const task = await services.tasks.add({ every: "2m", message: "check the printer" });
    assert.ok(!("error" in task));
    const next = () => services.tasks.store.get(task.id)!.nextRunAt;
    assert.equal(next(), "2026-11-23T03:33:00.000Z");
    // The minute's tick came 40 s late (a slow job before it): the run after it is still 03:35.
    clock.set(new Date("2026-11-23T03:33:40Z"));
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.equal(model.requests.length, 1);
    assert.equal(next(), "2026-11-23T03:35:00.000Z", "anchored to 03:33, not to 03:33:40");
    // The daemon restarts and its first tick is 03:35:50: it runs, and the next stays on the grid.
    const restarted = await daemon.reopen({ steps: [textResponse("three")] });
    try {
      restarted.clock.set(new Date("2026-11-23T03:35:50Z"));
      await restarted.services.taskRunner.run(restarted.clock.now(), new AbortController().signal);
      assert.equal(restarted.model.requests.length, 1);
      const stored = restarted.services.tasks.store.get(task.id)!;
      assert.equal(stored.nextRunAt, "2026-11-23T03:37:00.000Z");
      // Down for a while: the one catch-up run, then the grid again (not "now + 2 minutes").
      restarted.clock.set(new Date("2026-11-23T03:48:20Z"));
      await restarted.services.taskRunner.run(restarted.clock.now(), new AbortController().signal);
      assert.equal(
        restarted.services.tasks.store.get(task.id)!.nextRunAt,
        "2026-11-23T03:49:00.000Z",
      );
    } finally {
      restarted.close();
    }
  });
});

Deno.test("nextRunAfter keeps an interval on its anchor's grid", () => {
  const every = { scheduleKind: "every" as const, schedule: "2" };
  const anchor = new Date("2026-11-23T03:33:00Z");
  const at = (iso: string) => nextRunAfter(every, new Date(iso), undefined, anchor)?.toISOString();
  assert.equal(at("2026-11-23T03:33:00Z"), "2026-11-23T03:35:00.000Z");
  assert.equal(at("2026-11-23T03:34:59Z"), "2026-11-23T03:35:00.000Z");
  assert.equal(at("2026-11-23T03:35:00Z"), "2026-11-23T03:37:00.000Z");
  assert.equal(at("2026-11-23T03:20:00Z"), "2026-11-23T03:33:00.000Z");
  assert.equal(
    nextRunAfter(every, new Date("2026-11-23T03:33:40Z"))?.toISOString(),
    "2026-11-23T03:35:40.000Z",
    "no anchor (a new task): counted from now",
  );
});

Deno.test("a one-shot reminder runs exactly once: not on the ticks after it, not after a restart", async () => {
  await withTestDaemon({ steps: [textResponse("Reminded.")] }, async (daemon) => {
    const { services, clock, model } = daemon;
    const once = await services.tasks.add({ at: "2026-11-23 12:00", message: "Call the dentist" });
    assert.ok(!("error" in once));
    clock.set(new Date("2026-11-23T12:00:30Z"));
    // The daemon ticks every minute; before the fix it ran the reminder on each of them.
    for (let minute = 0; minute < 5; minute++) {
      await services.taskRunner.run(clock.now(), new AbortController().signal);
      clock.advance(60_000);
    }
    assert.equal(model.requests.length, 1, "one model run in five minutes");
    const stored = services.tasks.store.get(once.id)!;
    assert.equal(stored.enabled, false);
    assert.equal(stored.nextRunAt, undefined);
    assert.equal(stored.lastOutcome, "ok");
    const restarted = await daemon.reopen();
    try {
      for (let minute = 0; minute < 3; minute++) {
        await restarted.services.taskRunner.run(
          restarted.clock.now(),
          new AbortController().signal,
        );
        restarted.clock.advance(60_000);
      }
      assert.equal(restarted.model.requests.length, 0, "not again after a restart");
    } finally {
      restarted.close();
    }
    assert.equal(services.runs.recent(10, { kind: "task" }).length, 1);
  });
});

Deno.test("schema 29 disables the one-shots that earlier versions left due after their run", async () => {
  await withTestDaemon({}, async (daemon) => {
    const { services } = daemon;
    const spent = await services.tasks.add({ at: "2026-11-23 12:00", message: "Call the dentist" });
    const early = await services.tasks.add({
      at: "2026-11-23 13:00",
      message: "Ran early by hand",
    });
    const weekly = await services.tasks.add({ cron: "0 9 * * 1", message: "Summarize my week" });
    assert.ok(!("error" in spent) && !("error" in early) && !("error" in weekly));
    const db = daemon.database();
    // What the old runner left: the due time kept, still enabled, a run recorded after it.
    db.prepare("UPDATE tasks SET last_run_at = ?, last_outcome = 'ok' WHERE id IN (?, ?)")
      .run("2026-11-23T12:04:10.000Z", spent.id, early.id);
    db.exec(spentOneShotsMigration.sql);
    const after = (id: number) => services.tasks.store.get(id)!;
    assert.equal(after(spent.id).enabled, false);
    assert.equal(after(spent.id).nextRunAt, undefined);
    assert.equal(after(early.id).enabled, true, "a run before its due time does not spend it");
    assert.equal(after(early.id).nextRunAt, "2026-11-23T13:00:00.000Z");
    assert.equal(after(weekly.id).enabled, true);
  });
});

Deno.test("radar task add/list/disable/enable/remove", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-task-" });
  const env = {
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
  };
  const run = async (...args: string[]) => {
    const io = memoryIo(env, { cwd: home });
    const code = await runCli(args, io);
    return { code, out: io.out.join(""), err: io.err.join("") };
  };
  try {
    const added = await run("task", "add", "0 9 * * 1", "Summarize", "my", "week");
    assert.equal(added.code, 0, added.err);
    assert.match(
      added.out,
      /^Added #1 Summarize my week — cron "0 9 \* \* 1"; next Mon \d+ \w+ 09:00 \(.+\)\n$/,
    );
    assert.equal((await run("task", "add", "--every", "2h", "Check", "the", "mail")).code, 0);
    assert.equal((await run("task", "add", "nonsense")).code, 2);
    assert.match((await run("task", "add", "--every", "often", "x")).err, /--every must look like/);
    assert.match((await run("task", "list")).out, /#2 Check the mail — every 2h; next/);
    assert.match((await run("task", "disable", "2")).out, /#2 .*; disabled/);
    assert.match((await run("task", "enable", "2")).out, /#2 .*; next/);
    assert.match((await run("status")).out, /tasks:\n {2}#1 Summarize my week/);
    // The words schedule_task reads, shown back as the cron expression and the next run.
    const weekly = await run("task", "add", "every monday at 9am", "Plan the week");
    assert.equal(weekly.code, 0, weekly.err);
    assert.match(
      weekly.out,
      /^Added #3 Plan the week — every Monday at 09:00 \(cron "0 9 \* \* 1"\); next Mon \d+ \w+ 09:00 \(.+\)\n$/,
    );
    const once = await run("task", "add", "tomorrow at 8", "Call the dentist");
    assert.equal(once.code, 0, once.err);
    assert.match(once.out, /^Added #4 Call the dentist — once \w{3} \d+ \w+ \d{4} 08:00 \(.+\)\n$/);
    const unclear = await run("task", "add", "someday", "x");
    assert.equal(unclear.code, 2);
    assert.match(unclear.err, /"someday" is not a schedule Radar reads; .*"every Monday at 9am"/);
    assert.equal((await run("task", "remove", "1")).code, 0);
    assert.equal((await run("task", "remove", "1")).code, 3, "not found");
    assert.doesNotMatch((await run("task", "list")).out, /#1/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("a task already running (run now beside the schedule, or another process) is not started twice", async () => {
  const alivePids = new Set([1001, 2002]);
  await withTestDaemon({ steps: [textResponse("done once")], alivePids }, async (daemon) => {
    const { services, clock, model } = daemon;
    const added = await services.tasks.add({ cron: "0 11 * * *", message: "Check the backups" });
    assert.ok(!("error" in added));
    const task = services.tasks.store.get(added.id)!;
    // Same process: the dashboard's "Run now" while a run of the task is under way.
    const first = services.taskRunner.runTask(task, "manual");
    const second = await services.taskRunner.runTask(task, "manual");
    assert.equal(second.outcome, "busy");
    assert.match(second.reason, /already running \(PID 1001\)/);
    assert.equal((await first).outcome, "ran");
    assert.equal(model.requests.length, 1, "one model run");

    // Another live process holds a run: the scheduled tick skips it and moves the next run on.
    const other = await daemon.reopen({ pid: 2002 });
    try {
      const claim = other.services.runs.claimTask(task.id, "manual", clock.now(), 2002, () => true);
      assert.ok("runId" in claim);
      clock.set(new Date("2026-11-23T11:00:30Z"));
      await services.taskRunner.run(clock.now(), new AbortController().signal);
      assert.equal(model.requests.length, 1, "skipped while PID 2002 runs it");
      assert.equal(services.tasks.store.get(task.id)!.nextRunAt, "2026-11-24T11:00:00.000Z");
      const held = await services.taskRunner.runTask(task, "manual");
      assert.equal(held.outcome, "busy");
    } finally {
      other.close();
    }
  });
});

Deno.test("a task run left by a dead process is closed as interrupted and the task runs", async () => {
  await withTestDaemon({ steps: [textResponse("ran")] }, async (daemon) => {
    const { services, clock } = daemon;
    const added = await services.tasks.add({ cron: "0 11 * * *", message: "Tidy" });
    assert.ok(!("error" in added));
    const claim = services.runs.claimTask(added.id, "schedule", clock.now(), 4242, () => true);
    assert.ok("runId" in claim, "PID 4242 (not alive for the daemon) left a running row");
    const report = await services.taskRunner.runTask(services.tasks.store.get(added.id)!, "manual");
    assert.equal(report.outcome, "ran");
    const interrupted = services.runs.recent(5, { kind: "task" }).find((run) =>
      run.id === claim.runId
    )!;
    assert.equal(interrupted.outcome, "failed");
    assert.match(interrupted.reason ?? "", /interrupted/);
  });
});
