/**
 * One bad monitor or task does not stop the others: a row the runtime cannot schedule (a
 * duration no Date can hold, already in the database) is logged, flagged and backed off.
 */
import assert from "node:assert/strict";
import { Scheduler } from "../../src/application/scheduler.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
tools:
  fetch_url:
    allow_private: true
`;

Deno.test("a monitor with an impossible interval cannot stop the healthy ones being checked", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("<p>hello</p>", { headers: { "content-type": "text/html" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/`;
  try {
    await withTestDaemon({ yaml }, async (daemon) => {
      const { monitors, monitorChecker } = daemon.services;
      const bad = await monitors.add({ url: `${url}bad`, every: "1h" });
      const good = await monitors.add({ url: `${url}good`, every: "1h" });
      assert.ok(!("error" in bad) && !("error" in good));
      // The row as `--every 99999999999d` left it on a Radar without bounds.
      daemon.database().prepare("UPDATE monitors SET every_minutes = ? WHERE id = ?")
        .run(99999999999 * 1440, bad.id);
      const signal = new AbortController().signal;
      for (let minute = 0; minute < 3; minute++) {
        await monitorChecker.run(daemon.clock.now(), signal);
        daemon.clock.advance(60_000);
      }
      const after = (id: number) => monitors.list().find((monitor) => monitor.id === id)!;
      assert.ok(after(good.id).lastCheckedAt, "the healthy monitor was checked");
      const broken = after(bad.id);
      assert.ok(broken.lastCheckedAt, "the bad monitor is checked too, once");
      const next = new Date(broken.nextCheckAt).getTime() - daemon.clock.now().getTime();
      assert.ok(next > 0 && next <= 366 * 24 * 60 * 60_000, "its next check is a valid date");
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("a task whose schedule no Date can hold cannot stop the next task", async () => {
  await withTestDaemon({ steps: [textResponse("done"), textResponse("done")] }, async (daemon) => {
    const { tasks, taskRunner } = daemon.services;
    const bad = await tasks.add({ message: "broken", every: "1h" });
    const good = await tasks.add({ message: "healthy", every: "1h" });
    assert.ok(!("error" in bad) && !("error" in good));
    daemon.database().prepare("UPDATE tasks SET schedule = ? WHERE id = ?")
      .run(String(99999999999 * 1440), bad.id);
    daemon.clock.advance(60 * 60_000);
    await taskRunner.run(daemon.clock.now(), new AbortController().signal);
    assert.equal(tasks.store.get(good.id)!.lastOutcome, "ok", "the healthy task ran");
    const broken = tasks.store.get(bad.id)!;
    const next = new Date(broken.nextRunAt!).getTime() - daemon.clock.now().getTime();
    assert.ok(next > 0 && next <= 366 * 24 * 60 * 60_000, "its next run is a valid date");
  });
});

Deno.test("a tick whose heartbeat throws is logged and the next tick runs", async () => {
  await withTestDaemon({ steps: [textResponse("ok")] }, async (daemon) => {
    const { services } = daemon;
    let throws = true;
    const heartbeat = {
      tick: (options: Parameters<typeof services.heartbeat.tick>[0]) => {
        if (throws) throw new Error("database is locked");
        return services.heartbeat.tick(options);
      },
    } as typeof services.heartbeat;
    const scheduler = new Scheduler({
      config: daemon.runtime.config,
      clock: daemon.clock,
      logger: daemon.runtime.logger,
      heartbeat,
      runs: services.runs,
      queue: services.queue,
      jobs: [],
    });
    const first = await scheduler.tick();
    assert.match(first.skipped ?? "", /tick failed: database is locked/);
    throws = false;
    const second = await scheduler.tick();
    assert.equal(second.heartbeat?.outcome, "skipped");
  });
});
