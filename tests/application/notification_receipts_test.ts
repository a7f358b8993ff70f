/**
 * Notification receipts: a reminder ntfy refused is tried again (1, 5, 30, 120 minutes later) and
 * recorded delivered with its HTTP status, or undeliverable after the last try — and then `radar
 * status`, `radar notifications` and `radar task log` say so instead of looking like success.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { type TestDaemon, withTestDaemon } from "../helpers/test_radar.ts";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { awayStatusLines } from "../../src/cli/commands/away_status.ts";

async function retryTick(daemon: TestDaemon): Promise<void> {
  const job = (await daemon.services.tickJobs()).find((candidate) =>
    candidate.name === "notification retries"
  )!;
  await job.run(daemon.clock.now(), new AbortController().signal);
}

async function remind(daemon: TestDaemon): Promise<number> {
  const added = await daemon.services.tasks.add({
    message: "Remind me to water the plants",
    every: "1d",
  });
  assert.ok(!("error" in added));
  daemon.model.push(
    toolCallResponse("notify", { message: "Water the plants", title: "Reminder" }),
    textResponse("Reminded."),
  );
  daemon.clock.advance(24 * 60 * 60_000);
  await daemon.services.taskRunner.run(daemon.clock.now(), new AbortController().signal);
  return added.id;
}

Deno.test("a refused reminder is retried and recorded delivered with its status", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml =
      `radar:\n  timezone: "UTC"\nnotifications:\n  ntfy: { url: "${ntfy.url}", topic: "t" }\n`;
    await withTestDaemon({ yaml }, async (daemon) => {
      ntfy.status = 502;
      await remind(daemon);
      const [entry] = daemon.services.outbox.recent(5, "notify");
      assert.equal(entry.state, "failed");
      assert.equal(entry.status, 502);
      const [run] = daemon.services.runs.recent(1, { kind: "task" });
      assert.ok(run);
      ntfy.status = 200;
      await retryTick(daemon);
      assert.equal(ntfy.requests.length, 1, "not before its wait is over");
      daemon.clock.advance(60_000);
      await retryTick(daemon);
      assert.equal(ntfy.requests.length, 2);
      assert.equal(ntfy.requests[1].body, "Water the plants");
      assert.equal(ntfy.requests[1].headers.title, "Reminder");
      const delivered = daemon.services.outbox.get(entry.key)!;
      assert.equal(delivered.state, "sent");
      assert.equal(delivered.status, 200);
      assert.equal(delivered.attempts, 2);
      await retryTick(daemon);
      assert.equal(ntfy.requests.length, 2, "sent once");
    });
  } finally {
    await ntfy.close();
  }
});

Deno.test("a reminder that never gets through is undeliverable, and status and the CLI say so", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml =
      `radar:\n  timezone: "UTC"\nnotifications:\n  ntfy: { url: "${ntfy.url}", topic: "t" }\n`;
    await withTestDaemon({ yaml, now: new Date().toISOString() }, async (daemon) => {
      ntfy.status = 503;
      const taskId = await remind(daemon);
      const answer = daemon.services.runs.recent(1, { kind: "task" })[0];
      assert.ok(answer);
      for (const minutes of [1, 5, 30, 120, 1]) {
        daemon.clock.advance(minutes * 60_000);
        await retryTick(daemon);
      }
      assert.equal(ntfy.requests.length, 5, "the first try and four retries");
      const [entry] = daemon.services.outbox.recent(5, "notify");
      assert.equal(entry.state, "undeliverable");
      assert.equal(entry.attempts, 5);
      const lines = await awayStatusLines(daemon.services);
      assert.match(
        lines.join("\n"),
        /notifications: 1 UNDELIVERABLE in 7 days; newest "Reminder" \(ntfy refused the notification: 503/,
      );
      const env = {
        HOME: daemon.dir,
        RADAR_DATA_DIR: join(daemon.dir, "data"),
        RADAR_CONFIG: join(daemon.dir, "radar.yaml"),
      };
      const list = memoryIo(env, { cwd: daemon.dir });
      assert.equal(await runCli(["notifications"], list), 0, list.err.join(""));
      assert.match(
        list.out.join(""),
        /UNDELIVERABLE after 5 tries: ntfy refused the notification: 503/,
      );
      assert.match(list.out.join(""), /Reminder: Water the plants/);
      const log = memoryIo(env, { cwd: daemon.dir });
      assert.equal(await runCli(["task", "log", String(taskId)], log), 0, log.err.join(""));
      assert.match(
        log.out.join(""),
        /When tasks were due:\n.*→ ran {2}\[conversation #\d+\]\n {6}notified: UNDELIVERABLE after 5 tries: .* — "Water the plants"\n$/,
      );
    });
  } finally {
    await ntfy.close();
  }
});
