/**
 * Issue 23, class 9: the 15-minute floor of tasks the model schedules holds for every gap between
 * runs, not only the first: `0,14 * * * *` seen at 10:05 first waits 46 minutes (10:14 → 11:00),
 * then runs 14 minutes apart (11:00 → 11:14).
 */
import assert from "node:assert/strict";
import { withTestDaemon } from "../helpers/test_radar.ts";

Deno.test("a model-made task whose later runs come closer than 15 minutes is refused", async () => {
  await withTestDaemon({ now: "2026-11-23T10:05:00Z" }, async ({ services }) => {
    for (const cron of ["0,14 * * * *", "0-13 * * * *", "5,55 * * * *", "0,10,40 * * * *"]) {
      const added = await services.tasks.add({
        message: "Check the feed",
        cron,
        minIntervalMinutes: 15,
        origin: "model",
      });
      assert.ok("error" in added, `${cron} was accepted`);
      assert.match(added.error, /shortest allowed is 15 min/);
    }
    for (const cron of ["0,30 * * * *", "0 9 * * 1", "*/15 * * * *"]) {
      const added = await services.tasks.add({
        message: "Check the feed",
        cron,
        minIntervalMinutes: 15,
        origin: "model",
      });
      assert.ok(!("error" in added), `${cron}: ${JSON.stringify(added)}`);
    }
    // The user's own tasks have no floor.
    assert.ok(!("error" in await services.tasks.add({ message: "Tick", cron: "0,14 * * * *" })));
    return Promise.resolve();
  });
});
