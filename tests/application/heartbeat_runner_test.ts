import assert from "node:assert/strict";
import type { ChatResponse } from "../../src/core/chat_model.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const pdf = { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "invoice.pdf" };

Deno.test("an idle heartbeat records a skipped tick and makes no model call", async () => {
  await withTestDaemon({}, async ({ services, model }) => {
    const report = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(report.outcome, "skipped");
    assert.equal(report.reason, "nothing pending");
    assert.equal(model.requests.length, 0);
    const [run] = services.runs.recent(5);
    assert.equal(run.outcome, "skipped");
    assert.equal(run.promptTokens, undefined);
  });
});

Deno.test("one event makes exactly one model call that sees it, then it is consumed", async () => {
  await withTestDaemon({ steps: [textResponse("Nothing needs you.")] }, async (daemon) => {
    const { services, model, clock } = daemon;
    services.queue.enqueue(pdf, clock.now());
    const report = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(report.outcome, "ran");
    assert.equal(model.requests.length, 1);
    const user = model.requests[0].messages.at(-1)!;
    assert.equal(user.role, "user");
    assert.match(user.content, /^It is Monday, 23 Nov 2026, 10:00 UTC\. Since the last check:/);
    assert.match(user.content, /watcher ~\/Downloads \(1\):\n- new_pdf_detected: invoice\.pdf/);
    assert.equal(services.queue.pendingCount(), 0);
    const [run] = services.runs.recent(1);
    assert.equal(run.outcome, "ran");
    assert.equal(run.eventCount, 1);
    assert.equal(run.promptTokens, 10);
    assert.equal(run.completionTokens, 5);
    assert.equal(run.answer, "Nothing needs you.");
    const again = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(again.reason, "nothing pending", "nothing is delivered twice");
    assert.equal(model.requests.length, 1);
  });
});

Deno.test("a failed model call leaves the events queued for the next tick", async () => {
  await withTestDaemon({}, async ({ services, model, clock }) => {
    services.queue.enqueue(pdf, clock.now());
    const failed = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(failed.outcome, "failed");
    assert.match(failed.reason, /script exhausted/);
    assert.equal(services.queue.pendingCount(), 1);
    model.push(textResponse("ok"));
    const retried = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(retried.outcome, "ran");
    assert.equal(retried.events[0].summary, "invoice.pdf");
    assert.equal(services.queue.pendingCount(), 0);
  });
});

Deno.test("a crash between the model call and the commit re-delivers the events", async () => {
  let release: (response: ChatResponse) => void = () => {};
  const hanging = new Promise<ChatResponse>((resolve) => release = resolve);
  const alive = new Set([1001]);
  await withTestDaemon({ pid: 1001, alivePids: alive }, async (first) => {
    first.model.chat = () => hanging;
    first.services.queue.enqueue(pdf, first.clock.now());
    const crashed = first.services.heartbeat.tick({ trigger: "schedule" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(first.services.runs.recent(1)[0].outcome, "running");
    alive.delete(1001); // the process dies here (kill -9)

    const second = await first.reopen({ pid: 1002, steps: [textResponse("Filed the invoice.")] });
    alive.add(1002);
    try {
      const report = await second.services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(report.outcome, "ran");
      assert.deepEqual(report.events.map((event) => event.summary), ["invoice.pdf"]);
      const [latest, interrupted] = second.services.runs.recent(2);
      assert.equal(latest.outcome, "ran");
      assert.equal(interrupted.outcome, "failed");
      assert.match(interrupted.reason, /interrupted/);
      // Even if the "dead" run woke up, it must not consume what the new run owns.
      release(textResponse("late"));
      await crashed;
      assert.equal(second.services.runs.get(interrupted.id)!.outcome, "failed");
      assert.equal(second.services.queue.pendingCount(), 0);
    } finally {
      second.close();
    }
  });
});

Deno.test("quiet hours skip the heartbeat unless an urgent event is pending", async () => {
  await withTestDaemon({ now: "2026-11-23T23:30:00Z" }, async ({ services, model, clock }) => {
    services.queue.enqueue(pdf, clock.now());
    const quiet = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(quiet.reason, "quiet hours");
    assert.equal(model.requests.length, 0);
    services.queue.enqueue(
      { source: "monitor Bank", kind: "page_changed", summary: "Fraud alert", urgent: true },
      clock.now(),
    );
    model.push(textResponse("Notified."));
    const urgent = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(urgent.outcome, "ran");
    assert.deepEqual(urgent.events.map((event) => event.summary), ["Fraud alert"]);
    assert.doesNotMatch(model.requests[0].messages.at(-1)!.content, /invoice/);
    assert.equal(services.queue.pendingCount(), 1, "the non-urgent event waits for morning");
  });
});

Deno.test("ticks never overlap, in one process or across processes", async () => {
  let release: (response: ChatResponse) => void = () => {};
  let entered: () => void = () => {};
  const modelCalled = new Promise<void>((resolve) => entered = resolve);
  const alive = new Set([1001, 1002]);
  await withTestDaemon({ pid: 1001, alivePids: alive }, async (first) => {
    first.model.chat = () =>
      new Promise((resolve) => {
        release = resolve;
        entered();
      });
    first.services.queue.enqueue(pdf, first.clock.now());
    const running = first.services.heartbeat.tick({ trigger: "schedule" });
    const overlapping = await first.services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(overlapping.reason, "previous tick still running");
    // The first tick holds its claim and waits on the model.
    await modelCalled;
    const other = await first.reopen({ pid: 1002 });
    try {
      const manual = await other.services.heartbeat.tick({ trigger: "manual" });
      assert.equal(manual.reason, "another heartbeat is running (PID 1001)");
      assert.equal(other.model.requests.length, 0);
    } finally {
      other.close();
    }
    release(textResponse("done"));
    assert.equal((await running).outcome, "ran");
  });
});

Deno.test("a dry run shows the message and its token estimate without side effects", async () => {
  await withTestDaemon({}, async ({ services, model, clock }) => {
    services.queue.enqueue(pdf, clock.now());
    const report = await services.heartbeat.tick({ trigger: "manual", dryRun: true });
    assert.equal(report.reason, "dry run");
    assert.match(report.message!, /invoice\.pdf/);
    assert.ok(report.estimatedPromptTokens! > 50);
    assert.equal(model.requests.length, 0);
    assert.equal(services.runs.recent(5).length, 0);
    assert.equal(services.queue.pendingCount(), 1);
  });
});

Deno.test("a heartbeat records the tools it called and the notifications it sent", async () => {
  await withTestDaemon({
    steps: [toolCallResponse("remember", { content: "Invoice arrived" }), textResponse("Noted.")],
  }, async ({ services, clock, runtime }) => {
    services.queue.enqueue(pdf, clock.now());
    await services.heartbeat.tick({ trigger: "schedule" });
    const [run] = services.runs.recent(1);
    assert.deepEqual(run.tools, ["remember"]);
    assert.equal(run.notifications, 0);
    const conversation = runtime.conversations.conversation(run.conversationId!)!;
    assert.equal(conversation.kind, "heartbeat");
    assert.equal(conversation.title, "Heartbeat 2026-11-23");
  });
});
