/**
 * Side effects never repeat: a notification is recorded under a key before it is sent, so a
 * re-delivered heartbeat that re-asks the model is told "already notified"; a task's next run
 * is moved before the run starts.
 */
import assert from "node:assert/strict";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

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
    const added = await services.tasks.add({ message: "Check the backups", every: "1h" });
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

Deno.test("a task run cut short by a crash runs once more, in its conversation, without notifying twice", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml = `radar:
  timezone: "UTC"
notifications:
  ntfy: { url: "${ntfy.url}", topic: "tasks" }
`;
    await withTestDaemon({ now: "2026-11-23T10:00:00Z", yaml, pid: 501 }, async (first) => {
      const added = await first.services.tasks.add({
        message: "Remind me to water the plants",
        every: "1h",
      });
      assert.ok(!("error" in added));
      first.clock.advance(60 * 60_000);
      // The first process notifies, then dies before the run is stored (no more model steps
      // would answer; instead the test stops here and reopens as a new process).
      let crash = () => {};
      const dead = new Promise<void>((resolve) => crash = resolve);
      first.model.push(toolCallResponse("notify", { message: "Water the plants" }), () => {
        crash();
        throw new Error("unreachable");
      });
      const running = first.services.taskRunner.run(
        first.clock.now(),
        new AbortController().signal,
      );
      await dead;
      await running.catch(() => {});
      assert.equal(ntfy.requests.length, 1);
      // Simulate the kill: the claim and outbox entry stay, the run row stays "running".
      first.database().prepare(
        "UPDATE heartbeat_runs SET outcome = 'running', finished_at = NULL WHERE kind = 'task'",
      ).run();
      first.database().prepare(
        "INSERT OR REPLACE INTO task_claims SELECT 1, id, '2026-11-23T11:00:00.000Z', '', " +
          "conversation_id FROM heartbeat_runs WHERE kind = 'task'",
      ).run();
      const [firstConversation] = first.database().prepare(
        "SELECT id FROM conversations WHERE kind = 'task'",
      ).all() as Array<{ id: number }>;
      const second = await first.reopen({
        pid: 502,
        steps: [
          toolCallResponse("notify", { message: "Water the plants!" }),
          textResponse("Reminded."),
        ],
      });
      try {
        second.services.runs.closeAbandoned(second.clock.now(), (pid) => pid === 502);
        await second.services.taskRunner.run(second.clock.now(), new AbortController().signal);
        const task = second.services.tasks.store.get(added.id)!;
        assert.equal(task.lastOutcome, "ok", "the interrupted run ran again");
        // In the conversation the interrupted run had started: one conversation per firing.
        const conversations = second.database().prepare(
          "SELECT id FROM conversations WHERE kind = 'task'",
        ).all().map((row) => row.id);
        assert.deepEqual(conversations, [firstConversation.id]);
        assert.equal(task.lastConversationId, firstConversation.id);
        assert.equal(task.nextRunAt, "2026-11-23T12:00:00.000Z");
        assert.deepEqual(ntfy.requests.map((request) => request.body), ["Water the plants"]);
        assert.match(
          second.model.requests.at(-1)!.messages.at(-1)!.content,
          /\nAlready notified: /,
        );
        // Retried once: the claim is gone, the next tick does not run it again.
        await second.services.taskRunner.run(second.clock.now(), new AbortController().signal);
        assert.equal(second.model.requests.length, 2);
      } finally {
        second.close();
      }
    });
  } finally {
    await ntfy.close();
  }
});
