import assert from "node:assert/strict";
import { Cron } from "croner";
import { parseRecurrence } from "../../src/core/schedule_words.ts";

Deno.test("parseRecurrence() maps plain recurring phrases to croner-compatible cron or intervals", () => {
  const cases: Array<[string, string, string]> = [
    ["every Monday at 9am", "0 9 * * 1", "every Monday at 09:00"],
    ["every 2 hours on weekdays", "0 */2 * * 1-5", "every 2 hours on weekdays"],
    ["weekdays at 7:30", "30 7 * * 1-5", "every weekday at 07:30"],
    ["on the 1st of every month", "0 9 1 * *", "on day 1 of every month at 09:00"],
    ["monthly on the 15th at 9:30pm", "30 21 15 * *", "on day 15 of every month at 21:30"],
    ["last day of every month at 18:00", "0 18 L * *", "on the last day of every month at 18:00"],
    ["Mondays and Thursdays at 5 pm", "0 17 * * 1,4", "every Monday and Thursday at 17:00"],
    ["daily at 9am and 5pm", "0 9,17 * * *", "every day at 09:00 and 17:00"],
    ["every sunday evening", "0 18 * * 0", "every Sunday at 18:00"],
    ["every morning", "0 8 * * *", "every day at 08:00"],
    ["each weekday at noon", "0 12 * * 1-5", "every weekday at 12:00"],
    ["every weekend at 10", "0 10 * * 0,6", "every weekend day at 10:00"],
    ["every 15 min on weekdays", "*/15 * * * 1-5", "every 15 minutes on weekdays"],
    ["every 2 days at 8", "0 8 */2 * *", "every 2 days at 08:00"],
  ];
  for (const [phrase, cron, description] of cases) {
    assert.deepEqual(parseRecurrence(phrase), { kind: "cron", cron, description }, phrase);
    new Cron(cron, { paused: true, timezone: "Europe/Berlin" }); // croner accepts it
  }
  assert.deepEqual(parseRecurrence("every two hours"), {
    kind: "every",
    every: "2h",
    description: "every 2 hours",
  });
  assert.deepEqual(parseRecurrence("hourly"), {
    kind: "every",
    every: "1h",
    description: "every hour",
  });
  assert.deepEqual(parseRecurrence("every half hour")?.kind, "every");
});

Deno.test("parseRecurrence() leaves one-shots and unclear phrases alone", () => {
  for (
    const phrase of ["tomorrow at 8", "in two hours", "next Friday", "every week", "someday", ""]
  ) {
    assert.equal(parseRecurrence(phrase), undefined, phrase);
  }
  assert.equal(parseRecurrence("every month on the 40th"), undefined);
  // Periods it cannot say are not read as daily at 9.
  for (
    const phrase of ["every fortnight", "fortnightly", "every year", "every other Monday"]
  ) {
    assert.equal(parseRecurrence(phrase), undefined, phrase);
  }
  assert.equal(parseRecurrence("every day at 9:00 and 17:30"), undefined, "one minute for all");
});
