/** coalescedRun: one run at a time; triggers during a run make exactly one more. */
import assert from "node:assert/strict";
import { coalescedRun } from "../../src/core/coalesced_run.ts";

Deno.test("coalescedRun: a burst of triggers during a run makes one more run, not one each", async () => {
  const releases: Array<() => void> = [];
  let runs = 0;
  const trigger = coalescedRun(async () => {
    runs += 1;
    await new Promise<void>((resolve) => releases.push(resolve));
  });
  trigger();
  trigger();
  trigger();
  trigger();
  assert.equal(runs, 1);
  releases.shift()!();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(runs, 2);
  releases.shift()!();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(runs, 2);
  trigger();
  assert.equal(runs, 3);
  releases.shift()!();
});
