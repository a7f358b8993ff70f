import assert from "node:assert/strict";
import { join } from "node:path";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { daemonView } from "../../web/daemon_view.ts";
import { describeSchedule } from "../../src/core/schedule_words.ts";
import { logsViewFromFiles } from "../../web/logs_view.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";

Deno.test("one schedule renderer for radar task, the schedule tools and the dashboard", () => {
  assert.equal(
    describeSchedule({ scheduleKind: "cron", schedule: "0 9 * * 1" }),
    'cron "0 9 * * 1"',
  );
  assert.equal(describeSchedule({ scheduleKind: "every", schedule: "120" }), "every 2h");
  assert.equal(describeSchedule({ scheduleKind: "every", schedule: "2880" }), "every 2d");
  assert.equal(describeSchedule({ scheduleKind: "every", schedule: "45" }), "every 45m");
  const once = { scheduleKind: "at" as const, schedule: "2026-12-01T09:00:00.000Z" };
  assert.equal(describeSchedule(once, "UTC"), "once Tue 1 Dec 2026 09:00");
  assert.equal(describeSchedule(once, "America/New_York"), "once Tue 1 Dec 2026 04:00");
  // A one-off time in radar.timezone: the next day there.
  assert.equal(
    describeSchedule({ scheduleKind: "at", schedule: "2026-12-01T23:30:00.000Z" }, "Europe/Berlin"),
    "once Wed 2 Dec 2026 00:30",
  );
});

Deno.test("daemonView() adds, lists, toggles, runs and removes real tasks", async () => {
  await withTestDaemon({
    steps: [
      toolCallResponse("remember", { content: "Week 48 was calm" }),
      textResponse("Your week was calm."),
    ],
  }, async (daemon) => {
    const view = daemonView({
      radar: daemon.runtime,
      startedAt: daemon.clock.now(),
    });
    await assert.rejects(
      async () => await view.addTask({ name: "bad", schedule: "whenever it rains", prompt: "x" }),
      /^Error: Cannot add task: "whenever it rains" is not a schedule Radar reads; /,
    );
    const id = await view.addTask({
      name: "weekly",
      schedule: "every 2h",
      prompt: "Summarize my week",
    });
    let [task] = await view.tasks();
    assert.equal(task.id, id);
    assert.equal(describeSchedule(task, "UTC"), "every 2h");
    assert.equal(task.nextRunAt, "2026-11-23T12:00:00.000Z");
    assert.equal(await view.setTaskEnabled(id, false), true);
    [task] = await view.tasks();
    assert.equal(task.enabled, false);
    assert.equal(await view.setTaskEnabled(999, true), false);

    await view.runTaskNow(id);
    const record = await waitFor(() => {
      const stored = daemon.services.tasks.store.get(id);
      return stored?.lastRunAt ? stored : undefined;
    });
    assert.equal(record.lastOutcome, "ok");
    [task] = await view.tasks();
    assert.equal(task.lastOutcome, "ok");
    const audit = await logsViewFromFiles({
      logPath: join(daemon.dir, "missing.log"),
      toolCalls: daemon.runtime.toolCalls,
    }).toolAudit({ limit: 5 });
    assert.equal(audit[0].tool, "remember");
    assert.equal(audit[0].conversationId, record.lastConversationId);
    assert.throws(() => view.runTaskNow(999), /Cannot find task 999/);
    assert.equal(await view.removeTask(id), true);
    assert.deepEqual(await view.tasks(), []);
  });
});

Deno.test("daemonView() shows heartbeats, the next one, pending events and notifications", async () => {
  const ntfy = startFakeNtfy();
  const yaml = `notifications:\n  ntfy: { url: "${ntfy.url}", topic: "radar-test" }\n`;
  await withTestDaemon({ now: "2026-11-23T10:00:00Z", yaml }, async (daemon) => {
    const { services, runtime } = daemon;
    const view = daemonView({ radar: runtime, startedAt: new Date("2026-11-23T09:00:00Z") });
    assert.deepEqual(await view.state(), {
      running: true,
      startedAt: "2026-11-23T09:00:00.000Z",
      heartbeatEnabled: true,
    });
    assert.equal(await view.lastHeartbeat(), undefined);
    assert.equal(await view.nextHeartbeat(), "2026-11-23T10:00:00.000Z", "due now: never ran");

    await services.heartbeat.tick({ trigger: "schedule" });
    const last = await view.lastHeartbeat();
    assert.equal(last?.outcome, "skipped");
    assert.equal(last?.trigger, "schedule");
    assert.match(last?.reason ?? "", /nothing/i);
    assert.equal(await view.nextHeartbeat(), "2026-11-23T10:15:00.000Z");

    services.queue.enqueue({
      source: "watcher ~/Downloads",
      kind: "file_added",
      summary: "report.pdf (2 KB)",
    }, daemon.clock.now());
    const [event] = await view.pendingEvents(10);
    assert.equal(event.source, "watcher ~/Downloads");
    assert.equal(event.summary, "report.pdf (2 KB)");

    // Notifications are listed from the outbox: a chat's, sent and refused by ntfy alike.
    const notify = (await runtime.agentStack()).registry.get("notify")!;
    const context = {
      kind: "chat" as const,
      interactive: false,
      signal: AbortSignal.timeout(5_000),
    };
    await notify.run({ title: "New file", message: "report.pdf arrived" }, context);
    ntfy.status = 403;
    const refused = await notify.run({ message: "second" }, context);
    assert.match(JSON.stringify(refused), /ntfy refused the notification: 403/);
    const notifications = await view.recentNotifications(5);
    assert.deepEqual(notifications.map((n) => [n.title, n.body, n.delivered]), [
      ["Radar", "second", false],
      ["New file", "report.pdf arrived", true],
    ]);
    const [failed] = runtime.outbox.recent(1, "notify");
    assert.equal(failed.state, "failed");
    assert.equal(failed.status, 403);
    assert.equal(failed.topic, "radar-test");

    runtime.config.heartbeat.enabled = false;
    assert.equal(await view.nextHeartbeat(), undefined);
    assert.equal((await view.state()).heartbeatEnabled, false);
    assert.deepEqual(await view.monitors(), []);
  }).finally(() => ntfy.close());
});

Deno.test("logsViewFromFiles() tails the log file, filters case-insensitively and survives a missing file", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-logs-view-" });
  try {
    const path = join(dir, "radar.log");
    const lines = Array.from(
      { length: 300 },
      (_, index) =>
        `2026-11-23T10:00:00Z INFO ${index % 100 === 0 ? "Heartbeat finished" : "tick"} ${index}`,
    );
    Deno.writeTextFileSync(path, `${lines.join("\n")}\n`);
    const view = logsViewFromFiles({ logPath: path, toolCalls: { list: () => [] } });
    const tail = await view.agentLog({ lines: 2 });
    assert.deepEqual(tail, [lines[298], lines[299]]);
    assert.deepEqual(await view.agentLog({ lines: 10, filter: "HEARTBEAT" }), [
      lines[0],
      lines[100],
      lines[200],
    ]);
    const missing = logsViewFromFiles({
      logPath: join(dir, "nothing.log"),
      toolCalls: { list: () => [] },
    });
    assert.deepEqual(await missing.agentLog({ lines: 10 }), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("timed out");
}

Deno.test("daemonView() manages real URL monitors", async () => {
  await withTestDaemon({ steps: [] }, async (daemon) => {
    const view = daemonView({
      radar: daemon.runtime,
      startedAt: daemon.clock.now(),
    });
    const id = await view.addMonitor({
      url: "https://example.com/changelog",
      every: "2h",
      name: "changelog",
    });
    let [monitor] = await view.monitors();
    assert.deepEqual([monitor.id, monitor.name, monitor.everyMinutes, monitor.enabled], [
      id,
      "changelog",
      120,
      true,
    ]);
    assert.equal(await view.setMonitorEnabled(id, false), true);
    [monitor] = await view.monitors();
    assert.equal(monitor.enabled, false);
    await assert.rejects(async () => await view.checkMonitorNow(id + 99), /no such monitor/);
    await assert.rejects(
      () => Promise.resolve(view.addMonitor({ url: "ftp://example.com", every: "2h" })),
      /Cannot add monitor/,
    );
    assert.equal(await view.removeMonitor(id), true);
    assert.deepEqual(await view.monitors(), []);
  });
});
