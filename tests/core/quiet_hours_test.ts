import assert from "node:assert/strict";
import { isQuietTime } from "../../src/core/notifier.ts";

const at = (time: string) => new Date(`2026-11-22T${time}:00Z`);

Deno.test("isQuietTime() handles windows spanning midnight", () => {
  const quiet = { start: "23:00", end: "07:00" };
  assert.equal(isQuietTime(quiet, at("22:59"), "UTC"), false);
  assert.equal(isQuietTime(quiet, at("23:00"), "UTC"), true);
  assert.equal(isQuietTime(quiet, at("03:30"), "UTC"), true);
  assert.equal(isQuietTime(quiet, at("07:00"), "UTC"), false);
});

Deno.test("isQuietTime() handles same-day windows, time zones and no window", () => {
  const quiet = { start: "12:00", end: "14:00" };
  assert.equal(isQuietTime(quiet, at("12:30"), "UTC"), true);
  assert.equal(isQuietTime(quiet, at("11:30"), "Europe/Amsterdam"), true);
  assert.equal(isQuietTime(null, at("12:30"), "UTC"), false);
  assert.equal(isQuietTime({ start: "09:00", end: "09:00" }, at("09:00"), "UTC"), false);
});
