/**
 * The dashboard's "Add a task" form reads its schedule as `radar task add` and schedule_task do
 * (src/runtime/task_schedule_words.ts over src/tools/schedule_when.ts): words, "every 2h", one-off
 * times and cron, in radar.timezone; what it cannot read is one line on the page. Driven through
 * the real Hono app over a real daemon view of a real Radar.
 */
import assert from "node:assert/strict";
import { daemonView } from "../../web/daemon_view.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { createWebFixture, postForm } from "./web_fixture.ts";

const yaml = 'radar:\n  timezone: "Europe/Berlin"\nllm:\n  model: "test-model"\n';

Deno.test("the dashboard's Add a task form takes the schedules radar task add takes", async () => {
  // Monday 23 Nov 2026, 21:00 in Berlin.
  await withTestDaemon({ yaml, now: "2026-11-23T20:00:00Z" }, async (daemon) => {
    const fixture = createWebFixture({
      configText: yaml,
      extra: { daemon: daemonView({ radar: daemon.runtime, startedAt: daemon.clock.now() }) },
    });
    try {
      const add = (schedule: string, prompt: string) =>
        fixture.app.request("/tasks", postForm({ schedule, prompt }));
      for (
        const [schedule, prompt] of [
          ["every monday at 9am", "Summarize my week"],
          ["tomorrow at 8", "Call the garage"],
          ["0 7 * * 1-5", "Read the news"],
          ["every 2h", "Check the inbox"],
          ["weekdays at 7:30", "Plan the day"],
        ]
      ) {
        const response = await add(schedule, prompt);
        assert.equal(response.status, 303, `${schedule}: ${await response.text()}`);
      }
      const stored = daemon.services.tasks.list().map((task) => [
        task.message,
        task.scheduleKind,
        task.schedule,
        task.nextRunAt,
      ]);
      assert.deepEqual(stored, [
        ["Summarize my week", "cron", "0 9 * * 1", "2026-11-30T08:00:00.000Z"],
        ["Call the garage", "at", "2026-11-24T07:00:00.000Z", "2026-11-24T07:00:00.000Z"],
        ["Read the news", "cron", "0 7 * * 1-5", "2026-11-24T06:00:00.000Z"],
        ["Check the inbox", "every", "120", "2026-11-23T22:00:00.000Z"],
        ["Plan the day", "cron", "30 7 * * 1-5", "2026-11-24T06:30:00.000Z"],
      ]);

      // Shown back by the one schedule renderer, in radar.timezone.
      const page = await (await fixture.app.request("/tasks")).text();
      for (
        const shown of [
          "<code>cron &quot;0 9 * * 1&quot;</code>",
          "<code>once Tue 24 Nov 2026 08:00</code>",
          "<code>every 2h</code>",
          "2026-11-30 09:00",
        ]
      ) assert.ok(page.includes(shown), shown);

      const refused = await add("whenever it rains", "Water the plants");
      assert.equal(refused.status, 422);
      assert.match(
        await refused.text(),
        /Cannot add task: &quot;whenever it rains&quot; is not a schedule Radar reads; give a cron expression/,
      );
      // A period the parser cannot say is refused, not read as "every day at 09:00".
      const fortnight = await add("every fortnight", "Water the plants");
      assert.equal(fortnight.status, 422);
      assert.match(await fortnight.text(), /Cannot add task: &quot;every fortnight&quot; is not a/);
      assert.equal(daemon.services.tasks.list().length, 5);
    } finally {
      fixture.close();
    }
  });
});
