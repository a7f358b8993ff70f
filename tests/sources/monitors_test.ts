import { writeUserConfig } from "../helpers/radar_process.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { daemonStatus } from "../../src/cli/commands/daemon_status.ts";
import { failingThreshold } from "../../src/core/schedule.ts";
import { monitorControls } from "../../web/daemon_view.ts";
import { Scheduler } from "../../src/application/scheduler.ts";
import { shortDiff } from "../../src/sources/monitors/text_diff.ts";
import type { MonitorControls } from "../../web/daemon_view.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { type TestDaemon, withTestDaemon } from "../helpers/test_radar.ts";

/** A page server with a changeable body, an ETag per version and a switchable failure. */
function startPageServer() {
  const state = {
    body: "",
    status: 200,
    requests: [] as Array<{ path: string; ifNoneMatch: string | null }>,
  };
  const etag = () =>
    `"v${[...state.body].reduce((sum, char) => sum * 31 + char.charCodeAt(0) | 0, 7)}"`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    state.requests.push({ path: url.pathname, ifNoneMatch: request.headers.get("if-none-match") });
    if (state.status !== 200) return new Response("boom", { status: state.status });
    if (request.headers.get("if-none-match") === etag()) {
      return new Response(null, { status: 304, headers: { etag: etag() } });
    }
    return new Response(state.body, {
      headers: { "content-type": "text/html; charset=utf-8", etag: etag() },
    });
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function page(price: string, nav = "Home"): string {
  return `<html><head><title>Shop</title><script>var x = 1;</script></head><body>
<nav>${nav}</nav><div id="product"><h1>Espresso machine</h1><p class="price">Price: ${price} EUR</p>
<p>In stock</p></div></body></html>`;
}

const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
tools:
  fetch_url:
    allow_private: true
`;

const minute = 60_000;

async function tick(daemon: TestDaemon): Promise<void> {
  await daemon.services.monitorChecker.run(daemon.clock.now(), new AbortController().signal);
}

Deno.test("a monitor stores a baseline, sends If-None-Match, and queues a short diff of its selector", async () => {
  const server = startPageServer();
  try {
    await withTestDaemon({ yaml, steps: [textResponse("The price went up.")] }, async (daemon) => {
      const { services, clock } = daemon;
      server.state.body = page("10");
      const added = await services.monitors.add({
        url: `${server.url}/espresso`,
        every: "60m",
        selector: "#product .price",
        name: "Espresso price",
      });
      assert.ok(!("error" in added), JSON.stringify(added));
      await tick(daemon);
      assert.equal(server.state.requests.length, 1);
      let record = services.monitors.store.get(added.id)!;
      assert.equal(record.content, "Price: 10 EUR");
      assert.match(record.lastResult!, /^first version stored/);
      assert.equal(services.queue.pendingCount(), 0, "the first version is no change");

      clock.advance(30 * minute);
      await tick(daemon);
      assert.equal(server.state.requests.length, 1, "not due yet: no request");

      clock.advance(30 * minute);
      await tick(daemon);
      assert.equal(server.state.requests[1].ifNoneMatch, record.etag);
      assert.equal(services.monitors.store.get(added.id)!.lastResult, "not modified (304)");

      server.state.body = page("10", "Home | Sale");
      clock.advance(60 * minute);
      await tick(daemon);
      assert.equal(services.monitors.store.get(added.id)!.lastResult, "unchanged");
      assert.equal(services.queue.pendingCount(), 0, "a change outside the selector is ignored");

      server.state.body = page("12", "Home | Sale");
      clock.advance(60 * minute);
      await tick(daemon);
      record = services.monitors.store.get(added.id)!;
      assert.equal(record.content, "Price: 12 EUR");
      assert.equal(record.lastChangedAt, clock.now().toISOString());
      const [event] = services.queue.pending(10);
      assert.equal(event.source, "monitor Espresso price");
      assert.equal(event.kind, "page_changed");
      assert.match(event.summary, /\/espresso changed \(\+1 −1 lines\)$/);
      assert.equal(event.detail, "@@ -1,1 +1,1 @@\n-Price: 10 EUR\n+Price: 12 EUR");

      // The scheduler runs the monitors before the heartbeat, which then sees the diff.
      clock.advance(60 * minute);
      const scheduler = new Scheduler({
        config: daemon.runtime.config,
        clock,
        logger: daemon.runtime.logger,
        heartbeat: services.heartbeat,
        runs: services.runs,
        queue: services.queue,
        jobs: await services.tickJobs(),
      });
      const requests = server.state.requests.length;
      const summary = await scheduler.tick();
      assert.equal(server.state.requests.length, requests + 1, "the tick checked the monitor");
      assert.equal(summary.heartbeat?.outcome, "ran");
      const message = daemon.model.requests[0].messages.at(-1)!.content;
      assert.match(
        message,
        /monitor Espresso price \(1\):\n- page_changed: .*\n {4}@@ -1,1 \+1,1 @@\n {4}-Price: 10 EUR\n {4}\+Price: 12 EUR/,
      );
    });
  } finally {
    await server.close();
  }
});

Deno.test("a failing monitor backs off, is flagged once, shows in status and recovers", async () => {
  const server = startPageServer();
  try {
    await withTestDaemon({ yaml }, async (daemon) => {
      const { services, clock } = daemon;
      server.state.body = page("10");
      const added = await services.monitors.add({ url: server.url, every: "30m" });
      if ("error" in added) throw new Error(added.error);
      const id: number = added.id;
      await tick(daemon);
      server.state.status = 503;
      const gaps: number[] = [];
      for (let failure = 1; failure <= failingThreshold + 1; failure++) {
        const before = services.monitors.store.get(id)!;
        clock.set(new Date(before.nextCheckAt));
        const requests = server.state.requests.length;
        await tick(daemon);
        assert.equal(server.state.requests.length, requests + 1);
        const after = services.monitors.store.get(id)!;
        assert.equal(after.failures, failure);
        gaps.push((Date.parse(after.nextCheckAt) - clock.now().getTime()) / minute);
        // Not retried at the full rate: nothing is due one interval later.
        clock.advance(30 * minute);
        assert.deepEqual(services.monitors.store.due(clock.now()).map((m) => m.id), []);
      }
      assert.deepEqual(gaps, [60, 120, 240, 480, 960, 1440]);
      const events = services.queue.pending(10);
      assert.equal(events.length, 1, "flagged once, not on every failure");
      assert.equal(events[0].kind, "monitor_failing");
      assert.match(events[0].summary, /failed 5 checks in a row \(503 Service Unavailable\)/);
      const status = daemonStatus(daemon.runtime).join("\n");
      assert.match(status, /monitors: 1 FAILING/);
      assert.match(status, /FAILING \(6 checks in a row: 503 Service Unavailable\)/);

      server.state.status = 200;
      const check = await services.monitorChecker.check(services.monitors.store.get(id)!);
      assert.equal(check.outcome, "not_modified");
      const recovered = services.queue.pending(10).filter((event) =>
        event.kind === "monitor_recovered"
      );
      assert.equal(recovered.length, 1, "one event says it answers again");
      assert.match(recovered[0].summary, /answers again after 6 failed checks/);
      assert.equal(check.eventId, recovered[0].id);
      const healed = services.monitors.store.get(id)!;
      assert.equal(healed.failures, 0);
      assert.equal((Date.parse(healed.nextCheckAt) - clock.now().getTime()) / minute, 30);
    });
  } finally {
    await server.close();
  }
});

Deno.test("private addresses are refused unless tools.fetch_url.allow_private; bad input is readable", async () => {
  const resolve = (host: string) =>
    Promise.resolve(host === "intranet.example" ? ["10.0.0.5"] : []);
  await withTestDaemon({ resolve }, async (daemon) => {
    const { monitors } = daemon.services;
    const loopback = await monitors.add({ url: "http://127.0.0.1:8080/admin" });
    assert.ok("error" in loopback);
    assert.match(loopback.error, /loopback address \(tools\.fetch_url\.allow_private\)/);
    assert.match(
      (await monitors.add({ url: "file:///etc/passwd" }) as { error: string }).error,
      /only http and https/,
    );
    assert.match(
      (await monitors.add({ url: "not a url" }) as { error: string }).error,
      /is not a URL/,
    );
    assert.match(
      (await monitors.add({ url: "https://example.com", every: "often" }) as { error: string })
        .error,
      /every must look like 30m/,
    );
    assert.match(
      (await monitors.add({ url: "https://example.com", selector: "##[" }) as { error: string })
        .error,
      /invalid CSS selector/,
    );
    // A name that resolves to a private address is refused at check time.
    const { services } = daemon;
    const added = await services.monitors.add({ url: "http://intranet.example/wiki" });
    assert.ok(!("error" in added));
    const check = await services.monitorChecker.check(added);
    assert.equal(check.outcome, "failed");
    assert.match(
      check.detail!,
      /refused: intranet\.example resolves to 10\.0\.0\.5, a private address/,
    );
  });
});

Deno.test("shortDiff() bounds its output and gives up on rewritten pages", async () => {
  const before = Array.from({ length: 200 }, (_, index) => `line ${index}`).join("\n");
  const after = before.replace(/line (\d*5)\n/g, "LINE $1\n");
  const diff = await shortDiff(before, after, 10);
  assert.equal(diff.added, 20);
  assert.equal(diff.text.split("\n").length, 11);
  assert.match(diff.text, /… \d+ more diff lines$/);
  const long = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join("\n");
  const rewritten = await shortDiff(long, long.replaceAll("line", "row"));
  assert.equal(rewritten.text, "(rewritten: 1000 lines replaced by 1000)");
});

Deno.test("radar monitor add/list/check-now/disable/remove; the dashboard controls fit", async () => {
  const server = startPageServer();
  const home = Deno.makeTempDirSync({ prefix: "radar-monitor-cli-" });
  try {
    server.state.body = page("10");
    writeUserConfig(home, yaml);
    const env = { HOME: home, RADAR_DATA_DIR: join(home, "data") };
    const run = async (...args: string[]) => {
      const io = memoryIo(env, { cwd: home });
      const code = await runCli(args, io);
      return { code, out: io.out.join(""), err: io.err.join("") };
    };
    let result = await run("monitor", "add", `${server.url}/p`, "--every", "2h", "--name", "Shop");
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^Added #1 Shop — http:\/\/127\.0\.0\.1:\d+\/p every 2h; next /);
    result = await run("monitor", "check-now", "1");
    assert.equal(result.out, "First version stored; later changes become heartbeat events.\n");
    server.state.body = page("11");
    result = await run("monitor", "check-now", "1");
    assert.match(
      result.out,
      /^Changed; queued for the next heartbeat:\n@@ .*\n Espresso machine\n-Price: 10 EUR\n\+Price: 11 EUR\n In stock\n$/,
    );
    result = await run("monitor", "list");
    assert.match(result.out, /#1 Shop .* last: changed \(\+1 −1 lines\)/);
    result = await run("monitor", "disable", "1");
    assert.match(result.out, /every 2h; paused/);
    result = await run("monitor", "add", "ftp://example.com");
    assert.equal(result.code, 2);
    assert.match(result.err, /Cannot add monitor: only http and https/);
    result = await run("monitor", "remove", "1");
    assert.equal(result.out, "Removed monitor #1.\n");
    result = await run("monitor", "remove", "1");
    assert.equal(result.code, 3, "not found");
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
  await withTestDaemon({ yaml }, async (daemon) => {
    const controls: MonitorControls = monitorControls(daemon.runtime);
    await assert.rejects(
      () => Promise.resolve(controls.addMonitor({ url: "x", every: "1h" })),
      /Cannot add monitor/,
    );
    const id = await controls.addMonitor({ url: "https://example.com/a", every: "1h" });
    const [row] = await controls.monitors();
    assert.deepEqual({ id: row.id, every: row.everyMinutes, enabled: row.enabled }, {
      id,
      every: 60,
      enabled: true,
    });
    assert.equal(await controls.setMonitorEnabled(id, false), true);
    assert.equal(await controls.removeMonitor(id), true);
  });
});
