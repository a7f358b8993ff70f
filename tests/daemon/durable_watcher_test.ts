/**
 * The folder watcher loses nothing: a file seen while settling survives a kill, and files that
 * arrive while the daemon is down are found at start, once (bursts: watcher_burst_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { daemonSources } from "../../src/daemon/watchers.ts";
import { daemonStatus } from "../../src/cli/commands/daemon_status.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { until } from "../helpers/until.ts";

function watchEntry(folder: string) {
  return {
    path: folder,
    pattern: "*.pdf",
    action: "new_pdf_detected",
    recursive: false,
    urgent: false,
  };
}

Deno.test("a file seen during the settle wait survives a kill of the daemon", async () => {
  await withTestDaemon({}, async (daemon) => {
    const folder = join(daemon.dir, "Downloads");
    Deno.mkdirSync(folder);
    daemon.runtime.config.watchers.push(watchEntry(folder));
    let now = 1_000_000;
    const first = daemonSources(daemon.services, {
      timers: new ManualTimers(),
      env: { HOME: daemon.dir },
      now: () => now,
    })[0];
    await first.start();
    Deno.writeTextFileSync(join(folder, "invoice.pdf"), "%PDF-1.4 invoice");
    await until("the file event", () => first.pendingPaths.length > 0);
    // Killed during the settle wait: no timer fires, nothing is closed, the process is gone.
    const restarted = await daemon.reopen();
    try {
      restarted.runtime.config.watchers.push(watchEntry(folder));
      const timers = new ManualTimers();
      const [second] = daemonSources(restarted.services, {
        timers,
        env: { HOME: daemon.dir },
        now: () => now,
      });
      await second.start();
      now += 2_000;
      timers.fireAll();
      const events = restarted.services.queue.pending(10);
      assert.equal(events.length, 1, "the file seen before the kill is queued after it");
      assert.match(events[0].summary, /^invoice\.pdf \(16 B\) at /);
      second.close();
    } finally {
      first.close();
      restarted.close();
    }
  });
});

Deno.test("files that arrive while the daemon is down are queued at start, once", async () => {
  await withTestDaemon({}, async (daemon) => {
    const folder = join(daemon.dir, "Inbox");
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(join(folder, "old.pdf"), "there before Radar watched");
    daemon.runtime.config.watchers.push(watchEntry(folder));
    let now = 5_000_000;
    const options = { timers: new ManualTimers(), env: { HOME: daemon.dir }, now: () => now };
    const [first] = daemonSources(daemon.services, options);
    await first.start(); // the first scan records what is there as the baseline
    first.close();

    Deno.writeTextFileSync(join(folder, "while-down.pdf"), "arrived while down");
    Deno.writeTextFileSync(join(folder, "also-down.PDF"), "arrived while down too");
    Deno.writeTextFileSync(join(folder, "notes.txt"), "not watched");
    const timers = new ManualTimers();
    const [second] = daemonSources(daemon.services, { ...options, timers });
    await second.start();
    now += 2_500;
    timers.fireAll();
    const summaries = daemon.services.queue.pending(10).map((event) => event.summary).sort();
    assert.equal(summaries.length, 2, summaries.join("\n"));
    assert.match(summaries[0], /^also-down\.PDF/);
    assert.match(summaries[1], /^while-down\.pdf/);
    second.close();

    // A third start finds nothing new: what was queued is remembered.
    const [third] = daemonSources(daemon.services, { ...options, timers: new ManualTimers() });
    await third.start();
    assert.deepEqual(third.pendingPaths, []);
    third.close();
    const stats = daemon.services.watchedFiles.stats(folder);
    assert.equal(stats.recovered, 2, "found at start: they arrived while nobody watched");
    assert.equal(stats.foundByReconcile, 0, "no OS event was lost");
    assert.equal(stats.queued, 2);
    assert.equal(stats.seen, 3, "the two queued files and the baseline one");
    assert.equal(stats.scans, 3);
    const status = daemonStatus(daemon.runtime).join("\n");
    assert.match(status, /3 files seen, 2 queued, 0 settling/);
    assert.match(status, /last reconcile: .* UTC \(at start, \d+ ms\); 0 files found only by/);
    assert.match(status, /2 files found at start \(arrived while Radar was down\)/);
  });
});
