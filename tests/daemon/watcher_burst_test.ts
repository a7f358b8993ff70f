/**
 * The watcher never trusts the OS event stream: bursts of 1,000, 5,000 and 20,000 real files,
 * written by another process into a real Deno.watchFs'd folder, are all queued, each exactly
 * once. Flat folders: the stream silently loses a third of the files (what issue 26 measured;
 * see tests/fakes/lossy_watch.ts). Recursive folders: nothing is injected — files written into
 * subfolders created during the burst race the OS watch on them, and subfolders moved in whole
 * have no file events at all. Time (quiet, settle) is an injected clock and manual timers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { daemonSources } from "../../src/daemon/watchers.ts";
import { daemonStatus } from "../../src/cli/commands/daemon_status.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { lossyWatchFs, type StreamCounts, untilStreamQuiet } from "../fakes/lossy_watch.ts";
import { burstPaths, type BurstSpec, writeBurstInSubprocess } from "../helpers/burst_writer.ts";
import { type TestDaemon, withTestDaemon } from "../helpers/test_radar.ts";

/** Every third file's events never arrive (by name, so a file loses all its events). */
const everyThirdFile = (path: string) =>
  /-(\d+)\.pdf$/.test(path) && Number(/-(\d+)\.pdf$/.exec(path)![1]) % 3 === 0;

interface BurstRun {
  daemon: TestDaemon;
  folder: string;
  recursive: boolean;
  lose?: (path: string) => boolean;
  bursts: (folder: string, outside: string) => BurstSpec[];
}

/** Starts a watcher, writes the bursts from another process, lets time pass until all settle. */
async function runBursts(run: BurstRun): Promise<{ expected: string[]; counts: StreamCounts }> {
  const { daemon, folder } = run;
  Deno.mkdirSync(folder);
  daemon.runtime.config.watchers.push({
    path: folder,
    pattern: "*.pdf",
    action: "new_pdf_detected",
    recursive: run.recursive,
    urgent: false,
  });
  const timers = new ManualTimers();
  let now = 10_000_000;
  const counts: StreamCounts = { delivered: 0, dropped: 0 };
  const [watcher] = daemonSources(daemon.services, {
    timers,
    env: { HOME: daemon.dir },
    now: () => now,
    watch: lossyWatchFs({ lose: run.lose, swallowRescan: run.lose !== undefined }, counts),
  });
  const expected: string[] = [];
  try {
    await watcher.start(); // the baseline of the empty folder
    const outside = join(daemon.dir, "outside");
    for (const spec of run.bursts(folder, outside)) {
      await writeBurstInSubprocess(spec);
      expected.push(...burstPaths(spec));
    }
    await untilStreamQuiet(counts);
    // Quiet now: the reconcile the burst asked for runs, then the files settle and are queued.
    for (
      let pass = 0;
      pass < 30 && daemon.services.queue.pendingCount() < expected.length;
      pass++
    ) {
      now += 1_000;
      timers.fireAll();
      await watcher.whenReconciled();
    }
  } finally {
    watcher.close();
  }
  return { expected, counts };
}

/** Every expected file is queued, and each exactly once. */
function assertQueuedOnce(daemon: TestDaemon, folder: string, expected: string[]): void {
  const events = daemon.services.queue.pending(expected.length + 100);
  const paths = events.map((event) => /at (.*)$/.exec(event.summary)![1]);
  assert.equal(new Set(paths).size, paths.length, "no file is queued twice");
  assert.deepEqual(paths.sort(), [...expected].sort());
  assert.equal(daemon.services.watchedFiles.stats(folder).queued, expected.length);
}

for (const total of [1_000, 5_000, 20_000]) {
  Deno.test({
    name: `a flat burst of ${
      total.toLocaleString("en-US")
    } files is queued in full, each once, though the OS lost a third`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      await withTestDaemon({}, async (daemon) => {
        const folder = join(daemon.dir, "Scans");
        const { expected, counts } = await runBursts({
          daemon,
          folder,
          recursive: false,
          lose: everyThirdFile,
          bursts: (target) => [{ folder: target, count: total }],
        });
        assert.ok(counts.dropped > 0, "the stream lost events");
        assertQueuedOnce(daemon, folder, expected);
        const stats = daemon.services.watchedFiles.stats(folder);
        const lost = expected.filter(everyThirdFile).length;
        assert.ok(
          stats.foundByReconcile >= lost,
          `found by reconciling ${stats.foundByReconcile}, lost ${lost}`,
        );
        assert.equal(stats.seen, total);
        const status = daemonStatus(daemon.runtime).join("\n");
        assert.match(status, new RegExp(`${total.toLocaleString("en-US")} files seen`));
        assert.match(status, /files found only by reconciling \(the OS event stream lost them\)/);
      });
    },
  });

  Deno.test({
    name: `a recursive burst of ${
      total.toLocaleString("en-US")
    } files in new and moved-in subfolders is queued in full, each once`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      await withTestDaemon({}, async (daemon) => {
        const folder = join(daemon.dir, "Archive");
        const half = total / 2;
        const { expected } = await runBursts({
          daemon,
          folder,
          recursive: true,
          bursts: (target, outside) => [
            // Subfolders created while files pour in (the OS watch on each comes late).
            { folder: target, count: half, perFolder: 50, prefix: "new" },
            // Whole folders moved in: one event for each folder, none for the files inside.
            { folder: target, count: half, perFolder: 250, prefix: "moved", movedIn: outside },
          ],
        });
        assertQueuedOnce(daemon, folder, expected);
        const stats = daemon.services.watchedFiles.stats(folder);
        assert.ok(stats.foundByReconcile >= half, "the moved-in files had no events");
      });
    },
  });
}
