/**
 * A custom check's notification reaches the dashboard: checks send through the Notifier under
 * their outbox key, and the home page lists notifications from the outbox (it used to read the
 * notify tool's audit rows, so a check's never showed).
 */
import assert from "node:assert/strict";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

Deno.test({
  name: "a failing check's notification is listed on the dashboard, sent once, from the outbox",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const ntfy = startFakeNtfy();
    const scratch = Deno.makeTempDirSync({ prefix: "radar-check-scratch-" });
    const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
notifications:
  ntfy: { url: "${ntfy.url}", topic: "radar-checks" }
tools:
  exec:
    scratch_dir: "${scratch}"
checks:
  - name: "backup"
    command: "echo 'no backup tonight' >&2; exit 3"
    notify_on_failure: true
`;
    try {
      await withTestDaemon({ yaml, now: "2026-11-24T14:00:00Z" }, async (daemon) => {
        const { runtime, clock } = daemon;
        const checks = (await runtime.tickJobs()).find((job) => job.name === "checks")!;
        await checks.run(clock.now(), AbortSignal.timeout(30_000));
        clock.advance(15 * 60_000);
        await checks.run(clock.now(), AbortSignal.timeout(30_000));
        assert.deepEqual(
          ntfy.requests.map((request) => [request.headers.title, request.body]),
          [["Check backup is failing", "exit code 3: no backup tonight"]],
          "sent once: still failing is no news",
        );
        const [entry] = runtime.outbox.recent(5, "notify");
        assert.equal(entry.state, "sent");
        assert.equal(entry.status, 200);
        assert.equal(entry.topic, "radar-checks");
        assert.match(entry.key, /^check:backup:failing-after:first-run:notify#1$/);

        const deps = await webDependenciesFromRuntime(runtime, {
          env: {},
          daemon: { startedAt: clock.now() },
        });
        const html = await (await createApp(deps).request("/", {
          headers: { Authorization: `Bearer ${deps.authToken}` },
        })).text();
        assert.ok(html.includes("Check backup is failing"), "the check's notification is listed");
        assert.ok(html.includes("exit code 3: no backup tonight"));
      });
    } finally {
      await ntfy.close();
      Deno.removeSync(scratch, { recursive: true });
    }
  },
});
