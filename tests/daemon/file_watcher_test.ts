import assert from "node:assert/strict";
import { join } from "node:path";
import { globToRegExp, isTemporaryName } from "../../src/adapters/folder_listing.ts";
import { daemonSources } from "../../src/daemon/watchers.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { until } from "../helpers/until.ts";

Deno.test("globToRegExp() and isTemporaryName() match what users mean", () => {
  assert.ok(globToRegExp("*.pdf").test("Invoice.PDF"));
  assert.ok(globToRegExp("*.cb?").test("issue1.cbz"));
  assert.ok(!globToRegExp("*.cb?").test("issue1.cbzz"));
  assert.ok(globToRegExp("scan-[0-9]*.png").test("scan-3.png"));
  assert.ok(!globToRegExp("*.pdf").test("a.pdf.crdownload"));
  for (const name of [".hidden.pdf", "a.pdf.crdownload", "a.pdf.part", "x.tmp", "a.pdf~"]) {
    assert.ok(isTemporaryName(name), name);
  }
  assert.ok(!isTemporaryName("invoice.pdf"));
});

Deno.test("a download becomes one event once final; a missing folder is picked up later", async () => {
  await withTestDaemon({}, async (daemon) => {
    const folder = join(daemon.dir, "Downloads");
    const yamlEntry = {
      path: folder,
      pattern: "*.pdf",
      action: "new_pdf_detected",
      recursive: false,
      urgent: false,
    };
    daemon.runtime.config.watchers.push(yamlEntry);
    const timers = new ManualTimers();
    let now = 1_000_000;
    const [watcher] = daemonSources(daemon.services, {
      timers,
      env: { HOME: daemon.dir },
      now: () => now,
    });
    watcher.start();
    try {
      assert.equal(watcher.state, "missing");
      Deno.mkdirSync(folder);
      timers.fireAll(); // the retry finds the folder
      assert.equal(watcher.state, "watching");
      await watcher.whenReconciled(); // its first scan: the (empty) baseline

      const partial = join(folder, "invoice.pdf.crdownload");
      Deno.writeTextFileSync(partial, "%PDF-1.4 part");
      Deno.writeTextFileSync(partial, "%PDF-1.4 part two", { append: true });
      Deno.writeTextFileSync(join(folder, "notes.txt"), "not a pdf");
      Deno.renameSync(partial, join(folder, "invoice.pdf"));
      await until("the rename event", () => watcher.pendingPaths.length > 0);
      Deno.writeTextFileSync(join(folder, "invoice.pdf"), "\n", { append: true });
      await new Promise((resolve) => setTimeout(resolve, 100)); // let late OS events arrive
      assert.deepEqual(watcher.pendingPaths, [join(folder, "invoice.pdf")]);
      timers.fireAll();
      assert.equal(daemon.services.queue.pending(10).length, 0, "not settled yet");
      now += 2_000;
      timers.fireAll();
      const events = daemon.services.queue.pending(10);
      assert.equal(events.length, 1);
      assert.equal(events[0].kind, "new_pdf_detected");
      assert.equal(events[0].source, `watcher ${folder}`);
      assert.match(events[0].summary, /^invoice\.pdf \(\d+ B\) at /);
    } finally {
      watcher.close();
    }
  });
});
