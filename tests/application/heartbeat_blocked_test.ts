/**
 * A heartbeat whose message a pre_agent_run hook blocks consumes nothing: its events stay queued,
 * and after `blockedHeartbeatLimit` blocked heartbeats they are set aside with the hook's message
 * (shown by `radar status`), so one event a rule keeps out cannot block every later heartbeat.
 * A blocked first message of an ask or chat is not kept as its conversation's title either.
 */
import assert from "node:assert/strict";
import { blockedHeartbeatLimit } from "../../src/application/heartbeat_commit.ts";
import { daemonStatus } from "../../src/cli/commands/daemon_status.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import { blockedTitle } from "../../src/core/agent_messages.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const yaml = `radar:
  timezone: "UTC"
hooks:
  rules:
    - name: no_payroll
      type: block_message_pattern
      patterns: ["payroll"]
      message: "payroll stays private"
`;

const payroll = { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "payroll.pdf" };
const invoice = { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "invoice.pdf" };

Deno.test("a heartbeat blocked by pre_agent_run keeps its events queued, then sets them aside", async () => {
  await withTestDaemon({ yaml, steps: [textResponse("Filed the invoice.")] }, async (daemon) => {
    const { services, model, clock } = daemon;
    services.queue.enqueue(payroll, clock.now());
    for (let attempt = 1; attempt < blockedHeartbeatLimit; attempt++) {
      const report = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(report.outcome, "skipped");
      assert.equal(report.reason, "blocked by a hook: payroll stays private");
      assert.equal(services.queue.pendingCount(), 1, `still queued after block ${attempt}`);
      assert.match(services.runs.get(report.runId!)!.reason!, /its events stay queued$/);
      clock.advance(15 * 60_000);
    }
    assert.equal(model.requests.length, 0, "the model never saw the blocked message");
    const last = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(last.outcome, "skipped");
    assert.equal(services.queue.pendingCount(), 0, "set aside, not retried forever");
    assert.match(
      services.runs.get(last.runId!)!.reason!,
      /1 event\(s\) set aside after 3 blocked heartbeats/,
    );
    assert.deepEqual(services.queue.setAside(), { count: 1, lastReason: "payroll stays private" });
    assert.ok(
      daemonStatus(daemon.runtime).includes(
        "  set aside by a hook: 1 events (last: payroll stays private; radar heartbeat requeue)",
      ),
    );
    // Nothing of the blocked message was stored in the heartbeat conversation.
    const conversation = daemon.runtime.conversations.latest("heartbeat")!;
    const stored = daemon.runtime.conversations.recentMessages(conversation.id, 50);
    assert.equal(stored.length, 0);
    // The next event is not held back by the one set aside.
    services.queue.enqueue(invoice, clock.now());
    const ran = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(ran.outcome, "ran");
    assert.equal(model.requests.length, 1);
    assert.doesNotMatch(JSON.stringify(model.requests[0]), /payroll/);
    assert.equal(services.queue.pendingCount(), 0);
    // `radar heartbeat requeue` puts it back, its blocked count reset.
    assert.equal(services.queue.requeueSetAside(), 1);
    assert.deepEqual(services.queue.setAside(), { count: 0, lastReason: undefined });
    assert.deepEqual(services.queue.pending(10).map((event) => event.summary), ["payroll.pdf"]);
    assert.equal(services.queue.requeueSetAside(), 0);
    clock.advance(15 * 60_000);
    const again = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(again.reason, "blocked by a hook: payroll stays private");
    assert.match(
      services.runs.get(again.runId!)!.reason!,
      /its events stay queued$/,
      "counted from zero again",
    );
  });
});

Deno.test("a blocked heartbeat's events are not consumed when the block lifts", async () => {
  await withTestDaemon({ steps: [textResponse("Noted.")] }, async (daemon) => {
    const { services, model, clock, runtime } = daemon;
    let block = true;
    runtime.hooks.register({
      name: "maintenance",
      point: "pre_agent_run",
      priority: 50,
      source: "test",
      description: "",
      handler: () => block ? { blocked: true, message: "maintenance window" } : undefined,
    });
    services.queue.enqueue(invoice, clock.now());
    assert.equal((await services.heartbeat.tick({ trigger: "schedule" })).outcome, "skipped");
    assert.equal(services.queue.pendingCount(), 1);
    block = false;
    const ran = await services.heartbeat.tick({ trigger: "schedule" });
    assert.equal(ran.outcome, "ran");
    assert.match(JSON.stringify(model.requests[0]), /invoice\.pdf/, "delivered after the block");
    assert.equal(services.queue.pendingCount(), 0);
    assert.equal(services.queue.setAside().count, 0);
  });
});

Deno.test("a blocked first message does not stay in an ask or chat conversation's title", async () => {
  await withTestDaemon({ yaml }, async ({ runtime, clock, model }) => {
    for (const kind of ["ask", "chat"] as const) {
      const text = "summarise the payroll of Alice";
      const id = runtime.conversations.createConversation(kind, text, clock.now());
      const result = await runAgent(await runtime.agent(), {
        conversationId: id,
        kind,
        userMessage: text,
        interactive: false,
      });
      assert.equal(result.blocked, true);
      assert.equal(result.answer, "payroll stays private");
      assert.equal(runtime.conversations.conversation(id)?.title, blockedTitle);
    }
    assert.equal(model.requests.length, 0);
    assert.equal(runtime.conversations.list({ limit: 10, search: "payroll" }).length, 0);
  });
});
