/**
 * Side effects never repeat: a notification is recorded under a key before it is sent, so a
 * re-delivered heartbeat that re-asks the model is told "already notified"; a task's next run
 * is moved before the run starts.
 */
import assert from "node:assert/strict";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "./test_runtime.ts";

Deno.test("a re-delivered heartbeat does not send the same notification twice", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
notifications:
  ntfy: { url: "${ntfy.url}", topic: "once" }
`;
    await withTestDaemon({
      yaml,
      steps: [
        toolCallResponse("notify", { message: "Invoice from ACME arrived" }),
        () => {
          throw new Error("the model server went away mid-run");
        },
        // Re-delivered: the model is asked again and notifies again, worded differently.
        toolCallResponse("notify", { message: "ACME sent an invoice" }),
        textResponse("Told you."),
      ],
    }, async ({ services, clock }) => {
      services.queue.enqueue(
        { source: "watcher ~/Downloads", kind: "new_pdf", summary: "invoice.pdf" },
        clock.now(),
      );
      const first = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(first.outcome, "failed");
      assert.equal(services.queue.pendingCount(), 1, "the event is re-delivered");
      clock.advance(15 * 60_000);
      const second = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(second.outcome, "ran");
      const [again] = second.result!.toolExecutions;
      assert.match(again.result.text, /^Already notified: .*"Invoice from ACME arrived"/);
      assert.deepEqual(ntfy.requests.map((request) => request.body), [
        "Invoice from ACME arrived",
      ]);
      assert.equal(services.queue.pendingCount(), 0);
      const [entry] = services.outbox.recent(1);
      assert.match(entry.key, /^heartbeat:event:\d+:notify#1$/);
      assert.ok(entry.sentAt);
    });
  } finally {
    await ntfy.close();
  }
});

Deno.test("a scheduled task's next run is moved before the run starts", async () => {
  let seenDuringRun: string | undefined;
  await withTestDaemon({
    now: "2026-11-23T10:00:00Z",
    steps: [],
  }, async ({ services, clock, model }) => {
    const added = services.tasks.add({ message: "Check the backups", every: "1h" });
    assert.ok(!("error" in added));
    model.push(() => {
      seenDuringRun = services.tasks.store.get(added.id)!.nextRunAt;
      return textResponse("Backups fine.");
    });
    clock.advance(60 * 60_000);
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    assert.equal(seenDuringRun, "2026-11-23T12:00:00.000Z", "moved before the model was asked");
  });
});
