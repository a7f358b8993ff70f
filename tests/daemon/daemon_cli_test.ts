import { writeUserConfig } from "../helpers/radar_process.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { memoryIo } from "../helpers/memory_io.ts";

async function withHome(run: (env: Record<string, string>, home: string) => Promise<void>) {
  const home = Deno.makeTempDirSync({ prefix: "radar-cli-" });
  try {
    await run({
      HOME: home,
      RADAR_DATA_DIR: join(home, "data"),
      RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    }, home);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

Deno.test("radar heartbeat skips with no model call when nothing is pending", async () => {
  await withHome(async (env, home) => {
    writeUserConfig(home, "heartbeat:\n  quiet_hours: null\n");
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["heartbeat"], io), 0);
    assert.equal(
      io.out.join(""),
      "No pending events.\nSkipped: nothing pending (no model call).\n",
    );
    const log = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["heartbeat", "log", "--all"], log), 0);
    assert.match(log.out.join(""), /heartbeat \(manual\): skipped \(nothing pending\)/);
  });
});

Deno.test("radar heartbeat --dry-run prints the message and estimate; a failure keeps events", async () => {
  await withHome(async (env, home) => {
    writeUserConfig(home, "heartbeat:\n  quiet_hours: null\n");
    Deno.mkdirSync(join(home, "data"));
    const db = openDatabase(join(home, "data", "radar.db"));
    new SqliteEventQueue(db).enqueue(
      { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "invoice.pdf" },
      new Date(),
    );
    db.close();
    const dry = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["heartbeat", "--dry-run"], dry), 0);
    const out = dry.out.join("");
    assert.match(out, /Pending events \(1\):\nwatcher ~\/Downloads \(1\):/);
    assert.match(out, /Message that would be sent:\nIt is .*Since the last check:/);
    assert.match(out, /Estimated prompt tokens: \d+/);

    const real = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["heartbeat"], real), 1);
    assert.match(real.out.join(""), /Failed: .*The events stay queued/);
    const status = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["status"], status), 1, "exit 1: the model server is unreachable");
    const text = status.out.join("");
    assert.match(text, /daemon: +not running/);
    assert.match(text, /last: .*heartbeat \(manual\): failed/);
    assert.match(text, /pending events: 1/);
    assert.match(text, /quiet hours: none/);
  });
});
