/** The one time-zone module (Temporal): wall time ⇄ instants and what a person reads. */
import assert from "node:assert/strict";
import {
  describeTimeZone,
  formatClock,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayTime,
  formatStoredTime,
  isKnownTimeZone,
  parseZonedTime,
  startOfZonedDay,
  zonedParts,
} from "../../src/core/zoned_time.ts";

Deno.test("wall time in a zone becomes the right instant, across DST and for impossible dates", () => {
  assert.equal(
    parseZonedTime("2026-11-25 09:30", "Europe/Berlin")?.toISOString(),
    "2026-11-25T08:30:00.000Z",
  );
  assert.equal(
    parseZonedTime("2026-07-01", "Europe/Berlin")?.toISOString(),
    "2026-06-30T22:00:00.000Z",
  );
  // 02:30 on 29 March does not exist in Berlin: it moves forward to 03:30 CEST.
  assert.equal(
    parseZonedTime("2026-03-29 02:30", "Europe/Berlin")?.toISOString(),
    "2026-03-29T01:30:00.000Z",
  );
  assert.equal(parseZonedTime("2026-02-30 09:00", "UTC"), undefined);
  assert.equal(
    parseZonedTime("2026-11-25T09:30+09:00", "Europe/Berlin")?.toISOString(),
    "2026-11-25T00:30:00.000Z",
  );
  assert.equal(parseZonedTime("next tuesday", "UTC"), undefined);
});

Deno.test("startOfZonedDay() is local midnight, also on a day with a DST change", () => {
  const at = new Date("2026-10-25T12:00:00Z"); // the day Berlin goes back to CET
  assert.equal(startOfZonedDay(at, "Europe/Berlin").toISOString(), "2026-10-24T22:00:00.000Z");
  assert.equal(startOfZonedDay(at, "Europe/Berlin", 1).toISOString(), "2026-10-25T23:00:00.000Z");
  assert.equal(startOfZonedDay(at, "Asia/Tokyo", -1).toISOString(), "2026-10-23T15:00:00.000Z");
});

Deno.test("formatters read the instant on the zone's wall clock", () => {
  const at = new Date("2026-11-26T14:30:05Z");
  assert.equal(formatDateTime(at, "Europe/Berlin"), "2026-11-26 15:30");
  assert.equal(formatDateTime(at, "Europe/Berlin", { seconds: true }), "2026-11-26 15:30:05");
  assert.equal(formatDateTime(at, "Europe/Berlin", { zone: true }), "2026-11-26 15:30 UTC+01:00");
  assert.equal(formatDateTime(at, "UTC", { zone: true }), "2026-11-26 14:30 UTC");
  assert.equal(formatDay(at, "Asia/Tokyo"), "Thu 26 Nov");
  assert.equal(formatDay(new Date("2026-11-26T15:30:00Z"), "Asia/Tokyo"), "Fri 27 Nov");
  assert.equal(formatClock(at, "America/St_Johns"), "11:00");
  assert.equal(formatClock(at, "Europe/Berlin", { seconds: true }), "15:30:05");
  assert.equal(formatDayTime(at, "Europe/Berlin"), "Thu 26 Nov 15:30");
  assert.equal(formatDate(at, "Pacific/Kiritimati"), "2026-11-27");
  assert.deepEqual(zonedParts(at, "Europe/Berlin"), {
    year: 2026,
    month: 11,
    day: 26,
    hour: 15,
    minute: 30,
    second: 5,
    weekday: 4,
  });
});

Deno.test("formatStoredTime() reads a stored ISO time in the zone and keeps other text", () => {
  const late = "2026-11-23T23:30:00.000Z";
  assert.equal(formatStoredTime(late, "Europe/Berlin"), "2026-11-24 00:30");
  assert.equal(
    formatStoredTime(late, "Europe/Berlin", { zone: true }),
    "2026-11-24 00:30 UTC+01:00",
  );
  assert.equal(formatStoredTime(late, "UTC", { seconds: true }), "2026-11-23 23:30:00");
  assert.equal(formatStoredTime("not a time at all", "Europe/Berlin"), "not a time at all");
  assert.equal(formatStoredTime("x".repeat(100), "UTC"), "x".repeat(40));
});

Deno.test("describeTimeZone() names the zone and its offset at that moment", () => {
  const winter = new Date("2026-11-23T12:00:00Z");
  const summer = new Date("2026-07-01T12:00:00Z");
  assert.equal(describeTimeZone(winter, "Europe/Berlin"), "Europe/Berlin (UTC+01:00)");
  assert.equal(describeTimeZone(summer, "Europe/Berlin"), "Europe/Berlin (UTC+02:00)");
  assert.equal(describeTimeZone(winter, "UTC"), "UTC");
  assert.equal(describeTimeZone(winter, "Asia/Kolkata"), "Asia/Kolkata (UTC+05:30)");
});

Deno.test("isKnownTimeZone() accepts IANA names and refuses made-up ones", () => {
  for (const zone of ["Europe/Berlin", "UTC", "utc", "Asia/Calcutta", "Etc/GMT+1"]) {
    assert.ok(isKnownTimeZone(zone), zone);
  }
  for (const zone of ["Mars/Olympus", "", "Europe/Berlinn"]) {
    assert.ok(!isKnownTimeZone(zone), zone);
  }
});
