/**
 * The daemon's guard when the disk goes bad while it runs: the start check passed, then a page
 * turns to noise; the first statement that reads it stops every write (one line each), and the
 * one notification goes out. Real SQLite file, manual timers, a recording notifier.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { databaseGuard } from "../../src/daemon/database_guard.ts";
import type { Notification, Notifier } from "../../src/core/notifier.ts";
import { DatabaseDamagedError } from "../../src/core/errors.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { openTestDaemon } from "../helpers/test_radar.ts";
import { createFactsDatabase, pagesOf, scramblePages } from "../helpers/scrambled_database.ts";

Deno.test("a page that goes bad while the daemon runs: the first read stops every write and notifies once", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-guard-" });
  Deno.writeTextFileSync(join(dir, "radar.yaml"), 'radar:\n  timezone: "UTC"\n');
  Deno.mkdirSync(join(dir, "data"));
  const path = join(dir, "data", "radar.db");
  createFactsDatabase(path, 3_000);
  const leaves = pagesOf(path).filter((page) => page.name === "facts" && page.pagetype === "leaf");
  const daemon = await openTestDaemon({ dir });
  const sent: Notification[] = [];
  const notifier: Notifier = {
    topic: () => "radar-test",
    send: (notification) => {
      sent.push(notification);
      return Promise.resolve({ sent: true, topic: "radar-test", status: 200 });
    },
  };
  const timers = new ManualTimers();
  const guard = databaseGuard({ ...daemon.runtime, notifier }, { timers });
  let watcherClosed = false;
  const [gated] = guard.gate([{ start() {}, close: () => void (watcherClosed = true) }]);
  try {
    guard.start();
    await guard.check();
    assert.equal(guard.problem(), undefined, "sound at start");
    gated.start();

    // The disk goes bad; another connection's write makes the daemon's cache read the file again.
    scramblePages(path, [leaves[Math.floor(leaves.length / 2)].pageno]);
    daemon.database().exec(
      "PRAGMA user_version = " +
        (daemon.database().prepare("PRAGMA user_version").get() as { user_version: number })
          .user_version,
    );
    daemon.database().exec("CREATE TABLE IF NOT EXISTS touch (x); DROP TABLE touch;");
    assert.throws(
      () => daemon.runtime.facts.listFacts({ limit: 5000 }),
      (error) => error instanceof DatabaseDamagedError && error.path === path,
    );
    // The guard acts at once, outside the failing statement (the daily check is not due).
    for (const [id, timer] of [...timers.pending]) {
      if (timer.milliseconds > 0) continue;
      timers.pending.delete(id);
      timer.callback();
    }
    assert.match(
      guard.problem() ?? "",
      /is damaged \(database disk image is malformed\): run `radar db check`.*Radar stopped writing to it\./,
    );
    assert.ok(watcherClosed, "the sources that write stopped");
    assert.throws(
      () => daemon.runtime.facts.addFact({ category: "learned_fact", content: "x" }, new Date()),
      /Cannot save the fact: the database is damaged .*, so Radar stopped writing to it/,
    );
    assert.equal(sent.length, 1);
    assert.match(sent[0].message, /radar db recover/);
    await guard.check();
    assert.equal(sent.length, 1, "one notification");
  } finally {
    guard.close();
    daemon.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
