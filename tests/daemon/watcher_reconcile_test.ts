/**
 * What the watcher's reconciles catch besides bursts: a file written while the watcher was busy
 * whose OS event was lost (found by the idle check), and a watched folder replaced by another at
 * the same path (the OS watch stays on the old one; the check notices and watches the new one).
 * Real files and a real Deno.watchFs; time is an injected clock and manual timers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FolderWatcher } from "../../src/adapters/file_watcher.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { SqliteWatchedFileStore } from "../../src/adapters/sqlite/watched_file_store.ts";
import { defaultReconcilePolicy } from "../../src/adapters/reconcile_schedule.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { runCli } from "../../src/cli/program.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { lossyWatchFs } from "../fakes/lossy_watch.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { daemonView } from "../../web/daemon_view.ts";
import { createWebFixture } from "../web/web_fixture.ts";
import { until } from "../helpers/until.ts";

/** A watcher on `folder` over the test daemon's database, queueing into its event queue. */
function watcherOn(
  daemon: { database(): import("node:sqlite").DatabaseSync },
  folder: string,
  options: { now: () => number; timers: ManualTimers; onQueue?: () => void; lose?: string },
) {
  const db = daemon.database();
  const queue = new SqliteEventQueue(db);
  const ledger = new SqliteWatchedFileStore(db).ledger(folder, (files) => {
    options.onQueue?.();
    for (const file of files) {
      queue.enqueue({
        source: "watcher",
        kind: "new_pdf_detected",
        summary: file.path,
        dedupeKey: file.path,
      }, new Date(options.now()));
    }
  });
  const watcher = new FolderWatcher({
    folder,
    pattern: "*.pdf",
    recursive: false,
    ledger,
    timers: options.timers,
    logger: silentLogger,
    now: options.now,
    watch: options.lose
      ? lossyWatchFs({ lose: (path) => path.endsWith(options.lose!) })
      : undefined,
  });
  return { watcher, queue };
}

Deno.test({
  name: "a file written while the watcher is busy queueing others is queued by the idle check",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await withTestDaemon({}, async (daemon) => {
      const folder = join(daemon.dir, "Inbox");
      Deno.mkdirSync(folder);
      let now = 20_000_000;
      const timers = new ManualTimers();
      let busyOnce = true;
      const { watcher, queue } = watcherOn(daemon, folder, {
        now: () => now,
        timers,
        lose: "late.pdf", // its event, produced while Radar was busy, never arrives
        onQueue() {
          if (!busyOnce) return;
          busyOnce = false;
          // While the watcher is busy queueing, another program saves a file.
          Deno.writeTextFileSync(join(folder, "late.pdf"), "%PDF-1.4 late");
        },
      });
      try {
        await watcher.start();
        for (let index = 0; index < 10; index++) {
          Deno.writeTextFileSync(join(folder, `scan-${index}.pdf`), "%PDF-1.4 scan");
        }
        await until("the scans' events", () => watcher.pendingPaths.length === 10);
        now += 2_000;
        timers.fireAll(); // settles the scans: busy queueing them when late.pdf arrives
        assert.equal(queue.pendingCount(), 10);
        await new Promise((resolve) => setTimeout(resolve, 300)); // late.pdf's event (lost)
        assert.ok(!watcher.pendingPaths.some((path) => path.endsWith("late.pdf")));

        // The idle check: one listing compared with the stored files finds it.
        now += defaultReconcilePolicy.idleMs + defaultReconcilePolicy.quietMs;
        timers.fireAll(); // the idle timer asks for the check
        timers.fireAll(); // quiet: it runs
        await watcher.whenReconciled();
        now += 2_000;
        timers.fireAll(); // it settles and is queued
        const late = queue.pending(100).filter((event) => event.summary.endsWith("late.pdf"));
        assert.equal(late.length, 1, "late.pdf is queued, once");
        const stats = new SqliteWatchedFileStore(daemon.database()).stats(folder);
        assert.equal(stats.foundByReconcile, 1);
        assert.equal(stats.lastReconcileReason, "idle");
        assert.equal(stats.queued, 11);
        // Later checks find nothing new: queued once.
        now += defaultReconcilePolicy.idleMs * 2;
        timers.fireAll();
        timers.fireAll();
        await watcher.whenReconciled();
        now += 2_000;
        timers.fireAll();
        assert.equal(queue.pendingCount(), 11);
      } finally {
        watcher.close();
      }
    });
  },
});

Deno.test({
  name:
    "a watched folder replaced by another at the same path is found by the idle check and watched again",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await withTestDaemon({}, async (daemon) => {
      const folder = join(daemon.dir, "Synced");
      Deno.mkdirSync(folder);
      Deno.writeTextFileSync(join(folder, "old.pdf"), "%PDF-1.4 there before");
      let now = 30_000_000;
      const timers = new ManualTimers();
      const { watcher, queue } = watcherOn(daemon, folder, { now: () => now, timers });
      try {
        await watcher.start();
        // A sync tool swaps the folder: the OS watch stays on the old one.
        Deno.renameSync(folder, `${folder}.old`);
        Deno.mkdirSync(folder);
        Deno.writeTextFileSync(join(folder, "new.pdf"), "%PDF-1.4 new");
        await new Promise((resolve) => setTimeout(resolve, 300));
        now += defaultReconcilePolicy.idleMs + defaultReconcilePolicy.quietMs;
        timers.fireAll();
        timers.fireAll();
        await watcher.whenReconciled();
        now += 2_000;
        timers.fireAll();
        assert.deepEqual(queue.pending(10).map((event) => event.summary), [
          join(folder, "new.pdf"),
        ]);
        const stats = new SqliteWatchedFileStore(daemon.database()).stats(folder);
        assert.equal(stats.lastReconcileReason, "replaced");
        assert.equal(stats.seen, 1, "old.pdf went with the old folder");

        // The new folder is watched: a file saved now comes by its OS event.
        Deno.writeTextFileSync(join(folder, "after.pdf"), "%PDF-1.4 after");
        await until("the new folder's event", () => watcher.pendingPaths.length === 1);
      } finally {
        watcher.close();
      }
    });
  },
});

Deno.test("radar status --json lists each watcher with files seen, last reconcile and found by reconciling", async () => {
  await withTestDaemon({}, async (daemon) => {
    const folder = join(daemon.dir, "Scans");
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(
      join(daemon.dir, "radar.yaml"),
      `llm:\n  base_url: http://127.0.0.1:9\n  retries: 0\nwatchers:\n  - path: ${folder}\n    pattern: "*.pdf"\n    action: new_pdf_detected\n`,
    );
    const store = new SqliteWatchedFileStore(daemon.database());
    store.record(folder, [{ path: join(folder, "a.pdf"), size: 1, mtimeMs: 1 }], 1_000);
    store.countReconcile(folder, {
      reason: "burst",
      found: 7,
      at: new Date("2026-11-23T10:00:00Z"),
      durationMs: 12,
    });
    const io = memoryIo({ HOME: daemon.dir, RADAR_DATA_DIR: join(daemon.dir, "data") });
    await runCli(["--config", join(daemon.dir, "radar.yaml"), "status", "--json"], io);
    const status = JSON.parse(io.out.join(""));
    assert.equal(status.watchers.length, 1);
    const [watcher] = status.watchers;
    assert.equal(watcher.folder, folder);
    assert.equal(watcher.state, "ok");
    assert.equal(watcher.stats.seen, 1);
    assert.equal(watcher.stats.foundByReconcile, 7);
    assert.equal(watcher.stats.lastReconcileAt, "2026-11-23T10:00:00.000Z");
    assert.equal(watcher.stats.lastReconcileReason, "burst");
    const text = status.sections.join("\n");
    assert.match(
      text,
      /last reconcile: 2026-11-23 10:00 UTC \(after a burst, 12 ms\); 7 files found/,
    );
  });
});

Deno.test("the dashboard shows each watcher's files seen, last reconcile and files found by it", async () => {
  await withTestDaemon({}, async (daemon) => {
    const folder = join(daemon.dir, "Scans");
    Deno.mkdirSync(folder);
    daemon.runtime.config.watchers.push({
      path: folder,
      pattern: "*.pdf",
      action: "new_pdf_detected",
      recursive: true,
      urgent: false,
    });
    const store = new SqliteWatchedFileStore(daemon.database());
    store.record(folder, [{ path: join(folder, "a.pdf"), size: 1, mtimeMs: 1 }], 1_000);
    store.countReconcile(folder, {
      reason: "overflow",
      found: 1768,
      at: new Date("2026-11-23T10:00:00Z"),
      durationMs: 840,
    });
    const fixture = createWebFixture({
      extra: { daemon: daemonView({ radar: daemon.runtime, startedAt: daemon.clock.now() }) },
    });
    try {
      const html = await (await fixture.app.request("/")).text();
      assert.match(html, /<h3>Folder watchers<\/h3>/);
      assert.ok(html.includes(folder), "the folder");
      assert.match(html, /2026-11-23 10:00 <span class="muted">the OS dropped events, 840 ms/);
      assert.match(
        html,
        /<td class="bad" title="files the OS event stream did not report[^"]*">1768<\/td>/,
      );
    } finally {
      fixture.close();
    }
  });
});
