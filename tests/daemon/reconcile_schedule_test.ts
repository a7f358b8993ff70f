/** When a watcher reconciles: after bursts of names (not writes), once quiet, spaced by cost. */
import assert from "node:assert/strict";
import { ReconcileSchedule } from "../../src/adapters/reconcile_schedule.ts";
import type { ReconcileReason } from "../../src/sources/watched_folders.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";

function schedule() {
  const timers = new ManualTimers();
  let now = 1_000_000;
  const runs: ReconcileReason[] = [];
  let state: "ready" | "busy" | "off" = "ready";
  const subject = new ReconcileSchedule({
    timers,
    now: () => now,
    state: () => state,
    run: (reason) => void runs.push(reason),
  });
  return {
    subject,
    timers,
    runs,
    advance: (ms: number) => void (now += ms),
    setState: (next: typeof state) => void (state = next),
  };
}

Deno.test("fifty new names within a second are a burst; writes into existing files are not", () => {
  const { subject, timers, runs, advance } = schedule();
  for (let index = 0; index < 500; index++) subject.noteEvent("modify");
  advance(2_000);
  timers.fireAll();
  assert.deepEqual(runs, [], "a large copy's writes ask for nothing");
  for (let index = 0; index < 49; index++) subject.noteEvent("create");
  advance(2_000);
  timers.fireAll();
  assert.deepEqual(runs, [], "49 names: no burst");
  for (let index = 0; index < 50; index++) subject.noteEvent("create");
  timers.fireAll();
  assert.deepEqual(runs, [], "not while the folder is busy");
  advance(1_000);
  timers.fireAll();
  assert.deepEqual(runs, ["burst"], "after a second of quiet");
});

Deno.test("a folder that never goes quiet is reconciled after maxDelayMs; later ones are spaced by cost", () => {
  const { subject, timers, runs, advance } = schedule();
  subject.request("overflow");
  for (let second = 0; second < 29; second++) {
    advance(1_000);
    subject.noteEvent("create");
    timers.fireAll();
  }
  assert.deepEqual(runs, []);
  advance(1_000);
  timers.fireAll();
  assert.deepEqual(runs, ["overflow"], "30 s after the request, quiet or not");
  subject.finished(4_000); // it took 4 s: the next waits 5 × 4 s = 20 s
  subject.request("burst");
  advance(10_000);
  timers.fireAll();
  assert.deepEqual(runs, ["overflow"]);
  advance(10_000);
  timers.fireAll();
  assert.deepEqual(runs, ["overflow", "burst"]);
});

Deno.test("the most urgent reason wins; a busy or stopped watcher waits; the idle check re-arms", () => {
  const { subject, timers, runs, advance, setState } = schedule();
  subject.request("idle");
  subject.request("overflow");
  subject.request("burst");
  setState("busy");
  advance(5_000);
  timers.fireAll();
  assert.deepEqual(runs, []);
  setState("ready");
  timers.fireAll();
  assert.deepEqual(runs, ["overflow"]);
  subject.finished(10);
  advance(5 * 60_000);
  timers.fireAll(); // the idle timer asks
  timers.fireAll(); // quiet: it runs
  assert.deepEqual(runs, ["overflow", "idle"]);
  setState("off");
  subject.request("burst");
  advance(60_000);
  timers.fireAll();
  assert.deepEqual(runs, ["overflow", "idle"], "a stopped watcher's start reconcile covers it");
  assert.equal(timers.pending.size, 0, "and nothing keeps ticking meanwhile");
});
