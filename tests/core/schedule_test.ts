import assert from "node:assert/strict";
import {
  backoffMinutes,
  dueAction,
  formatDurationMinutes,
  parseDurationMinutes,
} from "../../src/core/schedule.ts";
import { quietHoursGate } from "../../src/core/notifier.ts";
import { ManualClock } from "../../src/adapters/clock.ts";

Deno.test("parseDurationMinutes() reads s, m, h, d and rejects the rest", () => {
  assert.equal(parseDurationMinutes("60m"), 60);
  assert.equal(parseDurationMinutes("2h"), 120);
  assert.equal(parseDurationMinutes("1d"), 1440);
  assert.equal(parseDurationMinutes("90"), 90);
  assert.equal(parseDurationMinutes("120s"), 2);
  assert.equal(parseDurationMinutes("10s"), undefined);
  assert.equal(parseDurationMinutes("soon"), undefined);
  assert.equal(parseDurationMinutes("-5m"), undefined);
  assert.equal(formatDurationMinutes(45), "45m");
  assert.equal(formatDurationMinutes(150), "2h 30m");
  assert.equal(formatDurationMinutes(1500), "1d 1h");
});

Deno.test("dueAction() runs on time, catches up once within 24 h and skips older misses", () => {
  const next = new Date("2026-11-23T09:00:00Z");
  const later = (minutes: number) => new Date(next.getTime() + minutes * 60_000);
  assert.equal(dueAction(next, later(-1), "once_within_24h"), "wait");
  assert.equal(dueAction(next, later(0), "skip"), "run");
  assert.equal(dueAction(next, later(4), "skip"), "run");
  assert.equal(dueAction(next, later(120), "skip"), "skip_missed");
  assert.equal(dueAction(next, later(120), "once_within_24h"), "run");
  assert.equal(dueAction(next, later(24 * 60 + 1), "once_within_24h"), "skip_missed");
});

Deno.test("backoffMinutes() doubles per failure and caps at a day", () => {
  assert.equal(backoffMinutes(60, 0), 60);
  assert.equal(backoffMinutes(60, 1), 120);
  assert.equal(backoffMinutes(60, 3), 480);
  assert.equal(backoffMinutes(60, 10), 1440);
  assert.equal(backoffMinutes(2880, 4), 2880);
});

Deno.test("quietHoursGate() holds back non-urgent notifications during quiet hours", () => {
  const clock = new ManualClock(new Date("2026-11-23T23:30:00Z"));
  const gate = quietHoursGate({ start: "23:00", end: "07:00" }, clock, "UTC");
  assert.equal(gate.check({ urgent: true }).allowed, true);
  const verdict = gate.check({ urgent: false });
  assert.equal(verdict.allowed, false);
  assert.match(!verdict.allowed ? verdict.reason : "", /quiet hours \(23:00–07:00\)/);
  clock.set(new Date("2026-11-24T07:00:00Z"));
  assert.equal(gate.check({ urgent: false }).allowed, true);
  assert.equal(quietHoursGate(null, clock, "UTC").check({ urgent: false }).allowed, true);
});
