import assert from "node:assert/strict";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

Deno.test("a heartbeat in quiet hours has notify held back unless the model marks it urgent", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: { start: "23:00", end: "07:00" }
notifications:
  ntfy: { url: "${ntfy.url}", topic: "night" }
`;
    await withTestDaemon({
      now: "2026-11-23T23:30:00Z",
      yaml,
      steps: [
        toolCallResponse("notify", { message: "A PDF arrived" }),
        toolCallResponse("notify", { message: "The server is down", priority: "urgent" }),
        textResponse("Sent the urgent one."),
      ],
    }, async ({ services, clock }) => {
      services.queue.enqueue(
        { source: "watcher /srv", kind: "server_down", summary: "down.flag", urgent: true },
        clock.now(),
      );
      const report = await services.heartbeat.tick({ trigger: "schedule" });
      assert.equal(report.outcome, "ran");
      const [held, sent] = report.result!.toolExecutions;
      assert.equal(held.result.outcome, "refused");
      assert.match(held.result.text, /quiet hours/);
      assert.equal(sent.result.outcome, "ok");
      assert.deepEqual(ntfy.requests.map((request) => request.body), ["The server is down"]);
      assert.equal(services.runs.recent(1)[0].notifications, 1);
    });
  } finally {
    await ntfy.close();
  }
});
