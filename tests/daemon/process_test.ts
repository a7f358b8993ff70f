import assert from "node:assert/strict";
import { isProcessAlive, parseElapsedTime, processStartTime } from "../../src/adapters/process.ts";

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
});

Deno.test("processStartTime() says when a real process started; nothing for a gone one", async () => {
  const spawnedAt = Date.now();
  const sleeper = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    const started = processStartTime(sleeper.pid);
    assert.ok(started, "ps reports the child");
    // ps counts whole seconds: the start it implies is within ~2 s of the spawn.
    assert.ok(
      Math.abs(started.getTime() - spawnedAt) < 2500,
      `${started.toISOString()} vs ${new Date(spawnedAt).toISOString()}`,
    );
  } finally {
    sleeper.kill("SIGKILL");
    await sleeper.status;
  }
  assert.equal(processStartTime(sleeper.pid), undefined, "gone");
  assert.equal(processStartTime(0), undefined);
});
