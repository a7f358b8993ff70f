import assert from "node:assert/strict";
import { newEventIcs, occurrencesIn } from "../../src/sources/calendar/ics_occurrences.ts";

const fixture = Deno.readTextFileSync(
  new URL("../fixtures/calendar/weekly_berlin.ics", import.meta.url),
);

Deno.test("ics: a weekly recurrence across the DST change, an EXDATE and a moved instance", () => {
  const found = occurrencesIn(
    fixture,
    "work",
    new Date("2026-10-12T00:00:00Z"),
    new Date("2026-11-17T00:00:00Z"),
  ).filter((occurrence) => occurrence.uid === "standup@radar.test");
  assert.deepEqual(found.map((occurrence) => [occurrence.start.toISOString(), occurrence.title]), [
    ["2026-10-12T07:00:00.000Z", "Standup"], // 09:00 CEST
    ["2026-10-19T07:00:00.000Z", "Standup"],
    ["2026-10-26T08:00:00.000Z", "Standup"], // 09:00 CET, after the change on 25 October
    ["2026-11-02T10:00:00.000Z", "Standup (moved)"], // the overridden instance
    ["2026-11-16T08:00:00.000Z", "Standup"], // 9 November is an EXDATE
  ]);
  assert.equal(found[0].location, "Room 4");
  assert.equal(found[0].end.toISOString(), "2026-10-12T07:15:00.000Z");
});

Deno.test("ics: all-day and single events; the range is [from, to)", () => {
  const found = occurrencesIn(
    fixture,
    "work",
    new Date("2026-10-27T00:00:00Z"),
    new Date("2026-11-25T00:00:00Z"),
  ).filter((occurrence) => occurrence.uid !== "standup@radar.test");
  assert.deepEqual(found.map((occurrence) => [occurrence.title, occurrence.allDay]), [
    ["Team day off", true],
    ["Dentist", false],
  ]);
  assert.equal(
    occurrencesIn(fixture, "w", new Date("2026-11-24T15:00:00Z"), new Date("2026-11-25T00:00:00Z"))
      .length,
    0,
  );
});

Deno.test("ics: an endless daily rule stops at the range end; garbage throws", () => {
  const endless = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:e\nDTSTART:20200101T100000Z\n" +
    "RRULE:FREQ=DAILY\nSUMMARY:Pills\nEND:VEVENT\nEND:VCALENDAR\n";
  const found = occurrencesIn(
    endless,
    "me",
    new Date("2026-11-23T00:00:00Z"),
    new Date("2026-11-30T00:00:00Z"),
  );
  assert.equal(found.length, 7);
  assert.throws(() => occurrencesIn("not a calendar", "x", new Date(0), new Date()));
});

Deno.test("ics: a new event round-trips, with text escaped", () => {
  const text = newEventIcs(
    {
      title: "Call; with, Bob\nEND:VEVENT",
      start: new Date("2026-11-25T09:00:00Z"),
      end: new Date("2026-11-25T09:30:00Z"),
    },
    "new-1@radar",
    new Date("2026-11-23T10:00:00Z"),
  );
  const [event] = occurrencesIn(
    text,
    "me",
    new Date("2026-11-25T00:00:00Z"),
    new Date("2026-11-26T00:00:00Z"),
  );
  assert.equal(event.title, "Call; with, Bob END:VEVENT");
  assert.equal(event.start.toISOString(), "2026-11-25T09:00:00.000Z");
  assert.equal((text.match(/^END:VEVENT/gm) ?? []).length, 1);
});
