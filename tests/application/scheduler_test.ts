import assert from "node:assert/strict";
import { Scheduler } from "../../src/application/scheduler.ts";
import type { TickJob } from "../../src/core/work_ports.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { type TestDaemon, withTestDaemon } from "../helpers/test_radar.ts";

function scheduler(daemon: TestDaemon, jobs: TickJob[] = []): Scheduler {
  const { runtime, services } = daemon;
  return new Scheduler({
    config: runtime.config,
    clock: daemon.clock,
    logger: runtime.logger,
    heartbeat: services.heartbeat,
    runs: services.runs,
    queue: services.queue,
    jobs,
  });
}

const minute = 60_000;

Deno.test("the scheduler runs the heartbeat every interval_minutes on one-minute ticks", async () => {
  await withTestDaemon({ now: "2026-11-23T10:00:00Z" }, async (daemon) => {
    const ticks = scheduler(daemon);
    const woke: string[] = [];
    for (let i = 0; i < 60; i++) {
      const summary = await ticks.tick();
      if (summary.heartbeat) woke.push(daemon.clock.now().toISOString().slice(11, 16));
      daemon.clock.advance(minute);
    }
    assert.deepEqual(woke, ["10:00", "10:15", "10:30", "10:45"]);
  });
});

Deno.test("24 idle hours with quiet hours cost zero model calls and zero tokens", async () => {
  await withTestDaemon({ now: "2026-11-23T00:00:00Z" }, async (daemon) => {
    const ticks = scheduler(daemon);
    for (let i = 0; i < 24 * 60; i++) {
      await ticks.tick();
      daemon.clock.advance(minute);
    }
    assert.equal(daemon.model.requests.length, 0);
    const runs = daemon.services.runs.recent(1000);
    assert.equal(runs.length, 96);
    // Nothing pending is decided before quiet hours: an idle tick reads no local time.
    assert.equal(runs.filter((run) => run.reason === "nothing pending").length, 96);
    const totals = daemon.services.runs.totals(new Date("2026-11-22T00:00:00Z"));
    assert.equal(totals.promptTokens + totals.completionTokens, 0);
  });
});

Deno.test("jobs run before the heartbeat, so it sees their events in the same tick", async () => {
  await withTestDaemon({ steps: [textResponse("seen")] }, async (daemon) => {
    const job: TickJob = {
      name: "monitors",
      run: (now) => {
        daemon.services.queue.enqueue({
          source: "monitor Prices",
          kind: "page_changed",
          summary: "x",
        }, now);
        return Promise.resolve();
      },
    };
    const summary = await scheduler(daemon, [job]).tick();
    assert.equal(summary.heartbeat?.outcome, "ran");
    assert.match(daemon.model.requests[0].messages.at(-1)!.content, /monitor Prices/);
  });
});

Deno.test("a tick that fires while one runs is skipped, and stop() waits for it", async () => {
  await withTestDaemon({}, async (daemon) => {
    let release = () => {};
    const slow: TickJob = {
      name: "slow",
      run: () => new Promise<void>((resolve) => release = resolve),
    };
    const ticks = scheduler(daemon, [slow]);
    const first = ticks.tick();
    assert.deepEqual(await ticks.tick(), { skipped: "previous tick still running" });
    const stopped = ticks.stop(60_000);
    release();
    await stopped;
    assert.equal((await first).heartbeat?.outcome, "skipped");
    assert.deepEqual(await ticks.tick(), { skipped: "stopping" });
  });
});

Deno.test("a burst backlog is worked off in bounded heartbeats a minute apart, not one per interval", async () => {
  await withTestDaemon({ now: "2026-11-23T10:00:00Z" }, async (daemon) => {
    const at = daemon.clock.now();
    for (let index = 0; index < 2_500; index++) {
      daemon.services.queue.enqueue({
        source: "watcher ~/Downloads",
        kind: "new_file",
        summary: `scan-${index}.pdf (1 KB) at /home/me/Downloads/scan-${index}.pdf`,
        dedupeKey: `file:${index}`,
      }, at);
    }
    daemon.services.queue.enqueue(
      { source: "monitor Prices", kind: "page_changed", summary: "x" },
      at,
    );
    for (let index = 0; index < 10; index++) daemon.model.push(textResponse("noted"));
    const ticks = scheduler(daemon);
    const woke: string[] = [];
    for (let i = 0; i < 20; i++) {
      const summary = await ticks.tick();
      if (summary.heartbeat && summary.heartbeat.outcome !== "skipped") {
        woke.push(daemon.clock.now().toISOString().slice(11, 16));
        assert.ok(summary.heartbeat.events.length <= 1_000, "a bounded batch");
        assert.ok(summary.heartbeat.message!.length < 8_000, "a bounded message");
        assert.match(summary.heartbeat.message!, /… and \d+ more from watcher ~\/Downloads/);
      }
      daemon.clock.advance(minute);
    }
    assert.deepEqual(woke, ["10:00", "10:01", "10:02"]);
    assert.equal(daemon.services.queue.pendingCount(), 0);
    // The backlog gone, the rhythm is back to interval_minutes from the last scheduled run.
    const runs = daemon.services.runs.recent(100, { kind: "heartbeat" });
    assert.equal(runs[0].startedAt.slice(11, 16), "10:17");
  });
});
