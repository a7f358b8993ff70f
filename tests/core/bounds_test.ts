/**
 * Bounds on every duration and count: `--every 99999999999d` was accepted and made every monitor
 * check throw; `history --limit` and config timeouts had no upper bound.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteMonitorStore } from "../../src/adapters/sqlite/monitor_store.ts";
import { SqliteTaskStore } from "../../src/adapters/sqlite/task_store.ts";
import { everyProblem, limitProblem, maxEveryMinutes } from "../../src/core/bounds.ts";
import { parseDurationMinutes } from "../../src/core/schedule.ts";
import { runRadar } from "../helpers/radar_process.ts";

Deno.test("durations above a year and limits above the cap are refused", () => {
  assert.equal(parseDurationMinutes("99999999999d"), undefined);
  assert.equal(parseDurationMinutes("366d"), maxEveryMinutes);
  assert.equal(parseDurationMinutes("2h"), 120);
  assert.match(everyProblem("99999999999d", "--every")!, /--every must be at most 366d/);
  assert.match(everyProblem("10s", "every")!, /at least 1m/);
  assert.equal(everyProblem("30m", "--every"), undefined);
  assert.equal(everyProblem("soon", "--every"), undefined, "the parser explains non-durations");
  assert.match(limitProblem(5000, "--limit")!, /at most 1000/);
  assert.match(limitProblem(0, "--limit")!, /positive/);
  assert.equal(limitProblem(20, "--limit"), undefined);
});

Deno.test("stores read intervals saved before the bounds within the bounds", () => {
  const dir = Deno.makeTempDirSync();
  const db = openDatabase(join(dir, "radar.db"));
  try {
    const at = new Date("2026-11-23T10:00:00Z");
    db.prepare(
      `INSERT INTO monitors (name, url, selector, every_minutes, urgent, created_at, next_check_at)
       VALUES ('huge', 'https://example.com', '', ?, 0, ?, ?)`,
    ).run(143_999_999_998_560, at.toISOString(), at.toISOString());
    const monitor = new SqliteMonitorStore(db).list()[0];
    assert.equal(monitor.everyMinutes, maxEveryMinutes);
    assert.ok(Number.isFinite(new Date(at.getTime() + monitor.everyMinutes * 60_000).getTime()));
    db.prepare(
      `INSERT INTO tasks (name, message, schedule_kind, schedule, catch_up, created_at)
       VALUES ('huge', 'hi', 'every', '143999999998560', 'skip', ?)`,
    ).run(at.toISOString());
    assert.equal(new SqliteTaskStore(db).list()[0].schedule, String(maxEveryMinutes));
  } finally {
    db.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the CLI refuses out-of-bounds durations, limits and config values with one line, exit 2", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-bounds-" });
  try {
    const monitor = await runRadar(home, [
      "monitor",
      "add",
      "https://example.com/",
      "--every",
      "99999999999d",
    ]);
    assert.equal(monitor.code, 2, monitor.stderr);
    assert.equal(
      monitor.stderr,
      'radar: Cannot add monitor: --every must be at most 366d, not "99999999999d"\n',
    );
    const history = await runRadar(home, ["history", "--limit", "99999999"]);
    assert.equal(history.code, 2, history.stderr);
    assert.equal(history.stderr, "radar: --limit must be at most 1000, not 99999999\n");
    Deno.writeTextFileSync(join(home, "radar.yaml"), "llm:\n  response_timeout_seconds: 1e12\n");
    const config = await runRadar(home, ["config", "show"], {
      env: { RADAR_CONFIG: join(home, "radar.yaml") },
    });
    assert.equal(config.code, 2, config.stderr);
    assert.equal(config.stderr.trim().split("\n").length, 1, config.stderr);
    assert.match(config.stderr, /response_timeout_seconds/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
