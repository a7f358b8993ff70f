import assert from "node:assert/strict";
import { join } from "node:path";
import { acquireLock, readLock } from "../../src/daemon/lock_file.ts";
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
