import assert from "node:assert/strict";
import { formatDayTime } from "../../src/core/zoned_time.ts";
import { understandWhen } from "../../src/tools/schedule_when.ts";

const now = new Date("2026-11-23T21:30:00Z"); // Monday 22:30 in Berlin, 16:30 in New York

Deno.test("understandWhen() reads one-shot dates in the configured zone, not the machine's", async () => {
  assert.deepEqual(await understandWhen("tomorrow at 8", now, "Europe/Berlin"), {
    fields: { at: "2026-11-24 08:00" },
    description: "once",
  });
  assert.deepEqual(await understandWhen("tomorrow at 8", now, "America/New_York"), {
    fields: { at: "2026-11-24 08:00" },
    description: "once",
  });
  assert.deepEqual(await understandWhen("in two hours", now, "Europe/Berlin"), {
    fields: { at: "2026-11-24 00:30" },
    description: "once",
  });
  assert.deepEqual(await understandWhen("in two hours", now, "America/New_York"), {
    fields: { at: "2026-11-23 18:30" },
    description: "once",
  });
  assert.equal(
    formatDayTime(new Date("2026-11-30T08:00:00Z"), "Europe/Berlin"),
    "Mon 30 Nov 09:00",
  );
});

Deno.test("understandWhen() passes cron, intervals and ISO-like times through and asks about the rest", async () => {
  assert.deepEqual(await understandWhen("0 9 * * 1", now, "UTC"), {
    fields: { cron: "0 9 * * 1" },
    description: 'cron "0 9 * * 1"',
  });
  assert.deepEqual(await understandWhen("every 2h", now, "UTC"), {
    fields: { every: "2h" },
    description: "every 2h",
  });
  assert.deepEqual(await understandWhen("at 2026-12-01 09:00", now, "UTC"), {
    fields: { at: "2026-12-01 09:00" },
    description: "once",
  });
  // A repeating request Radar cannot read is never scheduled once instead.
  for (const unclear of ["someday", "when it rains", "every week", "every day at 9:00 and 17:30"]) {
    const result = await understandWhen(unclear, now, "UTC");
    assert.ok("error" in result, unclear);
    assert.match(result.error, /Ask the user when.*"every Monday at 9am"/);
  }
});
