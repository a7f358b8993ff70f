import assert from "node:assert/strict";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const pdf = { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "invoice.pdf" };

Deno.test("pre_heartbeat can block a heartbeat (events stay queued); post_heartbeat observes each run", async () => {
  await withTestDaemon(
    { steps: [textResponse("Filed.")] },
    async ({ services, model, clock, runtime }) => {
      const seen: string[] = [];
      let block = true;
      runtime.hooks.register({
        name: "busy",
        point: "pre_heartbeat",
        priority: 50,
        source: "test",
        description: "",
        handler: ({ eventCount }) =>
          block ? { blocked: true, message: `busy (${eventCount} events)` } : undefined,
      });
      runtime.hooks.register({
        name: "watch",
        point: "post_heartbeat",
        priority: 50,
        source: "test",
        description: "",
        handler: ({ eventCount, success }) => void seen.push(`${eventCount}:${success}`),
      });
      services.queue.enqueue(pdf, clock.now());
      const blocked = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(blocked.outcome, "skipped");
      assert.equal(blocked.reason, "blocked by a hook: busy (1 events)");
      assert.equal(model.requests.length, 0);
      assert.equal(services.queue.pendingCount(), 1, "events stay queued");
      assert.deepEqual(seen, []);
      block = false;
      const ran = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(ran.outcome, "ran");
      assert.deepEqual(seen, ["1:true"]);
    },
  );
});
