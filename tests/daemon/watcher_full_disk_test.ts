/**
 * A full disk never drops a watched file: when recording a seen file in SQLite fails, the
 * watcher keeps the path and tries again; once space is back, every file is queued. Uses a real
 * tmpfs for the database (root), the watched folder on the normal disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FolderWatcher } from "../../src/adapters/file_watcher.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { SqliteWatchedFileStore } from "../../src/adapters/sqlite/watched_file_store.ts";
import type { Logger } from "../../src/core/ports.ts";
import { fillDisk, mountTmpfs, tmpfsMounts } from "../adapters/sqlite/tmpfs.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { until } from "../helpers/until.ts";
import { needing } from "../helpers/system_parts.ts";

Deno.test(needing([tmpfsMounts], {
  name: "a watched file seen while the disk is full is queued once space is back",
  async fn() {
    const disk = mountTmpfs(1024);
    const folder = Deno.makeTempDirSync({ prefix: "radar-watched-" });
    const db = openDatabase(join(disk.path, "radar.db"));
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message) => warnings.push(message),
      error: (message) => warnings.push(message),
    };
    const queue = new SqliteEventQueue(db);
    const at = new Date("2026-11-23T10:00:00Z");
    const ledger = new SqliteWatchedFileStore(db).ledger(folder, (files) => {
      for (const file of files) {
        queue.enqueue(
          { source: "watcher", kind: "new_pdf_detected", summary: file.path, dedupeKey: file.path },
          at,
        );
      }
    });
    const timers = new ManualTimers();
    let now = 1_000_000;
    const watcher = new FolderWatcher({
      folder,
      pattern: "*.pdf",
      recursive: false,
      ledger,
      timers,
      logger,
      now: () => now,
      debounceMs: 2_000,
      writeRetryMs: 5_000,
      flushDelayMs: 7,
    });
    const flushPending = () =>
      [...timers.pending.values()].some((timer) => timer.milliseconds === 7);
    let written = 0;
    try {
      await watcher.start(); // the baseline scan of the empty folder
      fillDisk(disk.path);
      // Files arrive until recording one fails (SQLite may still have a free WAL page or two).
      while (!warnings.some((line) => /recording watched files failed/.test(line))) {
        assert.ok(written < 300, "the full disk never failed a ledger write");
        Deno.writeTextFileSync(
          join(folder, `scan-${written++}.pdf`),
          `%PDF-1.4 ${"x".repeat(900)}`,
        );
        await until("the file event", flushPending);
        timers.fireAll(); // the flush (it must not throw out of the timer)
      }
      const lastFailed = `scan-${written - 1}.pdf`;
      // Still full: the retry fails again and keeps the file.
      timers.fireAll();
      assert.ok(timers.pending.size > 0, "a retry stays scheduled");
      Deno.removeSync(join(disk.path, "filler"));
      // Space is back: the retry records it; the settle passes queue everything.
      for (let pass = 0; pass < 5; pass++) {
        timers.fireAll();
        now += 2_000;
      }
      const summaries = queue.pending(1000).map((event) => event.summary);
      assert.ok(summaries.some((summary) => summary.endsWith(lastFailed)), summaries.join(", "));
      assert.equal(summaries.length, written, "every file is queued once");
    } finally {
      watcher.close();
      db.close();
      disk.unmount();
      Deno.removeSync(folder, { recursive: true });
    }
  },
}));
