/**
 * Task firings as delivery receipts: every time a task was due is recorded — ran on time, caught
 * up late after downtime, missed during downtime (catch-up: skip), busy, run now — with its run's
 * conversation, and `radar task log` prints them.
 */
import assert from "node:assert/strict";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { firingLine } from "../../src/cli/commands/task_firings.ts";

Deno.test("task firings record on-time, caught-up, missed and manual runs", async () => {
  await withTestDaemon({ now: "2026-11-23T10:00:00Z" }, async ({ services, clock, model }) => {
    const signal = new AbortController().signal;
    const hourly = await services.tasks.add({ message: "Water the plants", every: "1h" });
    const skipper = await services.tasks.add({ message: "Stand up", every: "1h", catchUp: "skip" });
    assert.ok(!("error" in hourly) && !("error" in skipper));
    model.push(textResponse("Watered."), textResponse("Stood up."));
    clock.advance(60 * 60_000);
    await services.taskRunner.run(clock.now(), signal);
    // Radar was down for five hours: the hourly task catches up once, the other was missed.
    model.push(textResponse("Watered, late."));
    clock.advance(5 * 60 * 60_000);
    await services.taskRunner.run(clock.now(), signal);
    model.push(textResponse("Watered by hand."));
    await services.taskRunner.runTask(services.tasks.store.get(hourly.id)!, "manual");

    const firings = services.taskFirings.recent(10, hourly.id).reverse();
    assert.deepEqual(firings.map((firing) => [firing.state, firing.caughtUp]), [
      ["ran", false],
      ["ran", true],
      ["ran", false],
    ]);
    assert.equal(firings[0].dueAt, "2026-11-23T11:00:00.000Z");
    assert.equal(firings[1].dueAt, "2026-11-23T12:00:00.000Z");
    assert.ok(firings.every((firing) => firing.conversationId !== undefined));
    assert.equal(firings[2].note, "run now");
    const [missed] = services.taskFirings.recent(10, skipper.id);
    assert.equal(missed.state, "missed");
    assert.match(
      firingLine(missed),
      /task #2 {2}due 2026-11-23 12:00 → missed: missed while Radar was not running \(catch-up: skip\)$/,
    );
    assert.match(firingLine(firings[1]), /→ ran \(caught up late\) {2}\[conversation #\d+\]$/);
  });
});
