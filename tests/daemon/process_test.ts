import assert from "node:assert/strict";
import { isProcessAlive } from "../../src/adapters/process.ts";

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
