/**
 * One folder-watcher measurement in a fresh process (so its memory is its own), printed as one
 * JSON line. `burst N flat|recursive`: another process writes N files into a watched folder
 * (recursive: 50 per new subfolder, half of them moved in whole); measured until every file is
 * queued. `reconcile N flat|recursive`: a folder of N files already known to the ledger is
 * reconciled, comparing fingerprints (after a burst) and names only (the idle check).
 * `RADAR_BENCH_VERBOSE=1` logs the watcher's lines with times to stderr.
 */
import { join } from "node:path";
import { FolderWatcher, systemTimers } from "../src/adapters/file_watcher.ts";
import { openDatabase } from "../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../src/adapters/sqlite/event_queue.ts";
import { SqliteWatchedFileStore } from "../src/adapters/sqlite/watched_file_store.ts";
import { silentLogger } from "../src/core/ports.ts";
import {
  type BurstSpec,
  writeBurst,
  writeBurstInSubprocess,
} from "../tests/helpers/burst_writer.ts";

/** This process's RSS, peak RSS (MB) and CPU time (ms), read from /proc through `cat`. */
async function usage(): Promise<{ rssMb: number; peakMb: number; cpuMs: number }> {
  const read = async (file: string) =>
    new TextDecoder().decode(
      (await new Deno.Command("cat", { args: [`/proc/${Deno.pid}/${file}`] }).output()).stdout,
    );
  const status = await read("status");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const stat = (await read("stat")).replace(/^.*\) /, "").split(" ");
  return {
    rssMb: kb("VmRSS") / 1024,
    peakMb: kb("VmHWM") / 1024,
    cpuMs: (Number(stat[11]) + Number(stat[12])) * 10,
  };
}

/** Resets the peak RSS to the current RSS (Linux `clear_refs` 5). */
async function resetPeak(): Promise<void> {
  await new Deno.Command("sh", { args: ["-c", `echo 5 > /proc/${Deno.pid}/clear_refs`] }).output();
}

const t0 = performance.now();
const print = (level: string) => (message: string, fields?: Record<string, unknown>) =>
  console.error(
    `${((performance.now() - t0) / 1000).toFixed(2)} ${level} ${message}`,
    fields ?? "",
  );
const verboseLogger = {
  debug: print("debug"),
  info: print("info"),
  warn: print("warn"),
  error: print("error"),
};
const [mode, countText, shape] = Deno.args;
const count = Number(countText);
const recursive = shape === "recursive";
const dir = Deno.makeTempDirSync({ prefix: "radar-bench-watcher-" });
const folder = join(dir, "watched");
Deno.mkdirSync(folder);
const db = openDatabase(join(dir, "radar.db"));
const queue = new SqliteEventQueue(db);
const store = new SqliteWatchedFileStore(db);
const ledger = store.ledger(folder, (files) => {
  for (const file of files) {
    queue.enqueue(
      { source: "bench", kind: "file", summary: file.path, dedupeKey: file.path },
      new Date(),
    );
  }
});
const watcher = new FolderWatcher({
  folder,
  pattern: "*.pdf",
  recursive,
  ledger,
  timers: systemTimers,
  logger: Deno.env.get("RADAR_BENCH_VERBOSE") ? verboseLogger : silentLogger,
  // The shipped defaults: 2 s settle, reconcile after 1 s of quiet (defaultReconcilePolicy).
});

try {
  if (mode === "burst") {
    await watcher.start();
    await resetPeak();
    const before = await usage();
    const started = performance.now();
    const specs: BurstSpec[] = recursive
      ? [
        { folder, count: count / 2, perFolder: 50, prefix: "new" },
        { folder, count: count / 2, perFolder: 250, prefix: "moved", movedIn: join(dir, "out") },
      ]
      : [{ folder, count }];
    for (const spec of specs) await writeBurstInSubprocess(spec);
    const written = performance.now();
    while (queue.pendingCount() < count) {
      if (performance.now() - started > 600_000) throw new Error("not all files were queued");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = await usage();
    const stats = store.stats(folder);
    console.log(JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      afterWriteSeconds: (performance.now() - written) / 1000,
      cpuMs: after.cpuMs - before.cpuMs,
      peakExtraMb: after.peakMb - before.rssMb,
      queued: stats.queued,
      foundByReconcile: stats.foundByReconcile,
      reconciles: stats.reconciles,
    }));
  } else {
    writeBurst(recursive ? { folder, count, perFolder: 1_000 } : { folder, count });
    await watcher.start(); // the first scan records all of them (the baseline)
    const measure = async (reason: "overflow" | "idle") => {
      await resetPeak();
      const before = await usage();
      const started = performance.now();
      await watcher.reconcile(reason);
      const after = await usage();
      return {
        seconds: (performance.now() - started) / 1000,
        cpuMs: after.cpuMs - before.cpuMs,
        peakExtraMb: after.peakMb - before.rssMb,
      };
    };
    await measure("overflow"); // the first one after the baseline warms the caches up
    const full = await measure("overflow");
    const idle = await measure("idle");
    console.log(JSON.stringify({ full, idle, seen: store.stats(folder).seen }));
  }
} finally {
  watcher.close();
  db.close();
  Deno.removeSync(dir, { recursive: true });
}
