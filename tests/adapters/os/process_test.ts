import assert from "node:assert/strict";
import {
  isProcessAlive,
  parseElapsedTime,
  processStartTime,
} from "../../../src/adapters/os/process.ts";

Deno.test("isProcessAlive() tells a running process from an exited one", async () => {
  const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    assert.equal(isProcessAlive(child.pid), true);
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
  assert.equal(isProcessAlive(child.pid), false);
  assert.equal(isProcessAlive(Deno.pid), true);
  assert.equal(isProcessAlive(0), false);
});

Deno.test("parseElapsedTime() reads ps's [[dd-]hh:]mm:ss", () => {
  assert.equal(parseElapsedTime("05:07"), 307);
  assert.equal(parseElapsedTime("01:02:03"), 3723);
  assert.equal(parseElapsedTime("2-03:04:05"), 2 * 86400 + 3 * 3600 + 4 * 60 + 5);
  assert.equal(parseElapsedTime(""), undefined);
  assert.equal(parseElapsedTime("soon"), undefined);
  assert.equal(parseElapsedTime("1:2:3:4"), undefined);
  // procps's wrap-around for a process started within a clock tick of now (seen here ~5 %).
  assert.equal(parseElapsedTime("441077234-00:18:40"), undefined);
});

Deno.test("processStartTime() says when a real process started; nothing for a gone one", async () => {
  // PID 1 started before this test process (a just-spawned child can read as "unknown": see
  // parseElapsedTime), so its start time is a real date no later than ours.
  const started = processStartTime(1);
  assert.ok(started, "ps reports PID 1");
  assert.ok(!Number.isNaN(started.getTime()));
  assert.ok(started.getTime() <= performance.timeOrigin + 1000, started.toISOString());
  const child = new Deno.Command("true").spawn();
  await child.status;
  assert.equal(processStartTime(child.pid), undefined, "gone");
  assert.equal(processStartTime(0), undefined);
});
