import assert from "node:assert/strict";
import { join } from "node:path";
import {
  acquireLock,
  pidReuseMarginMs,
  readLock,
  runningDaemon,
} from "../../src/daemon/lock_file.ts";
import { followFile, lastLines, RotatingLogFile } from "../../src/daemon/log_file.ts";

Deno.test("acquireLock() refuses a live holder by PID, takes over a stale one, releases its own", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const alive = new Set([100]);
    const isAlive = (pid: number) => alive.has(pid);
    const first = acquireLock(dir, { pid: 100, startedAt: "t" }, isAlive);
    assert.throws(
      () => acquireLock(dir, { pid: 200, startedAt: "t" }, isAlive),
      /already running for .* \(PID 100\)/,
    );
    alive.delete(100);
    const second = acquireLock(dir, { pid: 200, startedAt: "t" }, isAlive);
    assert.equal(readLock(dir)?.pid, 200);
    first.release(); // no longer ours: must not remove the new holder's lock
    assert.equal(readLock(dir)?.pid, 200);
    second.update({ pid: 200, startedAt: "t", url: "http://127.0.0.1:1" });
    assert.equal(readLock(dir)?.url, "http://127.0.0.1:1");
    second.release();
    assert.equal(readLock(dir), undefined);
    Deno.writeTextFileSync(join(dir, "radar.pid"), "garbage");
    acquireLock(dir, { pid: 300, startedAt: "t" }, isAlive).release();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a lock whose PID now belongs to a newer process (reused after a crash or reboot) is stale", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const lockedAt = new Date("2026-11-20T08:00:00Z");
    const isAlive = (pid: number) => pid === 412;
    let startOf412 = new Date(lockedAt.getTime() - 2000); // the daemon itself, started just before
    const processStart = (pid: number) => (pid === 412 ? startOf412 : undefined);
    acquireLock(dir, { pid: 412, startedAt: lockedAt.toISOString() }, isAlive, processStart);
    assert.equal(runningDaemon(dir, isAlive, processStart)?.pid, 412);
    assert.throws(
      () =>
        acquireLock(dir, { pid: 500, startedAt: "2026-11-21T07:00:00Z" }, isAlive, processStart),
      /already running .*PID 412/,
    );
    // Within the margin (a clock correction at boot): still the holder.
    startOf412 = new Date(lockedAt.getTime() + pidReuseMarginMs - 1000);
    assert.equal(runningDaemon(dir, isAlive, processStart)?.pid, 412);
    // The machine rebooted; PID 412 is now some other program, started a day later.
    startOf412 = new Date("2026-11-21T06:59:00Z");
    assert.equal(runningDaemon(dir, isAlive, processStart), undefined, "not our daemon");
    acquireLock(dir, { pid: 500, startedAt: "2026-11-21T07:00:00Z" }, isAlive, processStart);
    assert.equal(readLock(dir)?.pid, 500, "taken over");
    // Without a way to read start times, a live PID still holds the lock.
    assert.equal(runningDaemon(dir, (pid) => pid === 500)?.pid, 500);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("RotatingLogFile rotates by size and lastLines() reads the tail", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "logs", "radar.log");
    const log = new RotatingLogFile(path, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 30; i++) log.write(`line ${String(i).padStart(2, "0")}`);
    log.close();
    assert.ok(Deno.statSync(path).size <= 100);
    assert.ok(Deno.statSync(`${path}.1`).size <= 100);
    assert.ok(Deno.statSync(`${path}.2`).size <= 100);
    assert.throws(() => Deno.statSync(`${path}.3`));
    assert.deepEqual(lastLines(path, 2), ["line 28", "line 29"]);
    assert.equal(lastLines(path, 1000).length, Deno.readTextFileSync(path).split("\n").length - 1);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("followFile() prints appended text and starts over after rotation", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "radar.log");
    Deno.writeTextFileSync(path, "old\n");
    const seen: string[] = [];
    const stop = new AbortController();
    const steps = [
      () => Deno.writeTextFileSync(path, "new 1\n", { append: true }),
      () => Deno.writeTextFileSync(path, "r\n"),
      () => stop.abort(),
    ];
    await followFile(path, 4, (text) => seen.push(text), {
      signal: stop.signal,
      sleep: () => Promise.resolve(steps.shift()?.()),
    });
    assert.deepEqual(seen, ["new 1\n", "r\n"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
