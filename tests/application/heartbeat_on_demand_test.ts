/**
 * The daemon's heartbeat loads its runner with the first tick that has work: ticks with nothing
 * to do are decided and recorded without it, exactly as the runner records them.
 */
import assert from "node:assert/strict";
import {
  HeartbeatOnDemand,
  type HeartbeatTicker,
} from "../../src/application/heartbeat_decision.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const pdf = { source: "watcher ~/Downloads", kind: "new_pdf_detected", summary: "invoice.pdf" };

Deno.test("a heartbeat with nothing to do is recorded as skipped without loading the runner; the first with work loads it once", async () => {
  await withTestDaemon({}, async ({ services, clock }) => {
    const loads: string[] = [];
    const ticks: string[] = [];
    const runner: HeartbeatTicker = {
      tick: (options) => {
        ticks.push(options.trigger);
        return Promise.resolve({
          outcome: "skipped",
          reason: "the runner's",
          events: [],
          durationMs: 0,
        });
      },
    };
    const heartbeat = new HeartbeatOnDemand({
      config: services.config,
      queue: services.queue,
      runs: services.runs,
      clock,
      pid: 1001,
      load: () => {
        loads.push("load");
        return loads.length === 1
          ? Promise.reject(new Error("cannot load"))
          : Promise.resolve(runner);
      },
    });
    const idle = await heartbeat.tick({ trigger: "schedule" });
    assert.equal(idle.reason, "nothing pending");
    assert.equal(services.runs.recent(1)[0].outcome, "skipped");
    const dry = await heartbeat.tick({ trigger: "schedule", dryRun: true });
    assert.equal(dry.runId, undefined, "a dry run records nothing");
    assert.deepEqual(loads, []);

    services.queue.enqueue(pdf, clock.now());
    await assert.rejects(heartbeat.tick({ trigger: "schedule" }), /cannot load/);
    assert.equal((await heartbeat.tick({ trigger: "schedule" })).reason, "the runner's");
    assert.equal((await heartbeat.tick({ trigger: "manual" })).reason, "the runner's");
    assert.deepEqual(loads, ["load", "load"], "a failed load is tried again, then kept");
    assert.deepEqual(ticks, ["schedule", "manual"]);
  });
});
