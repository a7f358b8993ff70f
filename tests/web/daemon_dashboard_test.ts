import assert from "node:assert/strict";
import { join } from "node:path";
import { runDaemon } from "../../src/daemon/daemon.ts";
import { readLock } from "../../src/daemon/lock_file.ts";
import { configSchema } from "../../src/config/schema.ts";
import { applyLiveConfig, changedConfigKeys } from "../../src/runtime/live_config.ts";
import { startDaemonWebServer } from "../../web/server.ts";
import { dashboardTokenPath } from "../../web/dashboard_token.ts";
import { sessionCookieNameFor, sessionValue } from "../../web/middleware/auth.ts";
import { type TestDaemon, withTestDaemon } from "../helpers/test_radar.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";

/** Runs the daemon with the real dashboard until `work` is done; ticks only at start. */
async function withServingDaemon(
  daemon: TestDaemon,
  work: (url: string) => Promise<void>,
): Promise<void> {
  const shutdown = new AbortController();
  let ready: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => ready = resolve);
  const running = runDaemon({
    radar: daemon.runtime,
    host: "127.0.0.1",
    port: 0,
    shutdown: shutdown.signal,
    startWeb: startDaemonWebServer,
    ticker: (_handler, signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve())),
    jobs: await daemon.services.tickJobs(),
    sources: [],
    onReady: (url) => ready(url),
    graceMs: 1000,
  });
  try {
    const url = await Promise.race([listening, running.then(() => "")]);
    if (url) {
      // Logged in as a browser would be after opening the login link.
      const token = Deno.readTextFileSync(dashboardTokenPath(daemon.runtime.dataDir)).trim();
      session = `${sessionCookieNameFor(url)}=${await sessionValue(token)}`;
    }
    await work(url);
  } finally {
    session = "";
    shutdown.abort();
    await running;
  }
}

/** The session cookie of the dashboard under test. */
let session = "";

/** fetch with the logged-in browser's session cookie. */
function fetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (session) headers.set("Cookie", session);
  return globalThis.fetch(input, { ...init, headers });
}

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: new URL(url).origin,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

Deno.test("radar serve's dashboard shows the daemon, its tasks, plugins and log, and applies config live", async () => {
  await withTestDaemon({ steps: [textResponse("Done.")] }, async (daemon) => {
    Deno.mkdirSync(join(daemon.runtime.dataDir, "logs"), { recursive: true });
    Deno.writeTextFileSync(
      join(daemon.runtime.dataDir, "logs", "radar.log"),
      "2026-11-23T10:00:00Z INFO radar serving\n",
    );
    await withServingDaemon(daemon, async (url) => {
      assert.ok(url, "the daemon is listening");
      const home = await (await fetch(`${url}/`)).text();
      assert.match(home, /scheduler<\/dt><dd class="good">running/);
      assert.doesNotMatch(home, /Daemon not running/);

      const added = await post(`${url}/tasks`, {
        name: "weekly",
        schedule: "every 2h",
        prompt: "Summarize my week",
      });
      assert.equal(added.status, 303);
      await added.body?.cancel();
      const tasks = await (await fetch(`${url}/tasks`)).text();
      assert.match(tasks, /<strong>weekly<\/strong>/);
      assert.match(tasks, /<code>every 2h<\/code>/);
      const invalid = await post(`${url}/tasks`, { schedule: "whenever it rains", prompt: "x" });
      assert.equal(invalid.status, 422);
      assert.match(await invalid.text(), /Cannot add task: &quot;whenever it rains&quot; is not a/);

      const plugins = await (await fetch(`${url}/plugins`)).text();
      assert.doesNotMatch(plugins, /not available/i);
      const logs = await (await fetch(`${url}/logs`)).text();
      assert.match(logs, /INFO radar serving/);

      const configPath = join(daemon.dir, "radar.yaml");
      const text = Deno.readTextFileSync(configPath);
      const saved = await post(`${url}/config`, {
        text: `${text}llm:\n  temperature: 0.9\n  model: "other-model"\n`,
      });
      const answer = await saved.text();
      assert.equal(saved.status, 200, answer);
      assert.match(answer, /Applied now: llm\.temperature\./);
      assert.match(answer, /Restart radar serve to apply: llm\.model\./);
      assert.equal(daemon.runtime.config.llm.temperature, 0.9);
      assert.equal((await daemon.runtime.agent()).settings.temperature, 0.9);
      assert.notEqual(daemon.runtime.config.llm.model, "other-model");
    });
    assert.equal(readLock(daemon.runtime.dataDir), undefined, "the lock is released");
  });
});

Deno.test("radar serve refuses a non-loopback bind without web.auth_token before listening", async () => {
  await withTestDaemon({}, async (daemon) => {
    await assert.rejects(
      runDaemon({
        radar: daemon.runtime,
        host: "0.0.0.0",
        port: 0,
        shutdown: new AbortController().signal,
        startWeb: startDaemonWebServer,
        ticker: () => Promise.resolve(),
        jobs: [],
        sources: [],
      }),
      /Cannot serve the dashboard on 0\.0\.0\.0: binding beyond 127\.0\.0\.1 needs web\.auth_token/,
    );
    assert.equal(readLock(daemon.runtime.dataDir), undefined, "the lock is released");
  });
});

Deno.test("applyLiveConfig() copies only the keys read on every run; changedConfigKeys() names the rest", () => {
  const running = configSchema.parse({});
  const next = configSchema.parse({
    llm: { temperature: 1.1, base_url: "http://gpu-box:11434" },
    heartbeat: { interval_minutes: 30, quiet_hours: null },
    web: { port: 9000 },
    watchers: [{ path: "~/Downloads" }],
  });
  assert.deepEqual(changedConfigKeys(running, next).sort(), [
    "heartbeat.interval_minutes",
    "heartbeat.quiet_hours",
    "llm.base_url",
    "llm.temperature",
    "watchers",
    "web.port",
  ]);
  const before = running.llm;
  assert.deepEqual(applyLiveConfig(running, next).sort(), [
    "heartbeat.interval_minutes",
    "heartbeat.quiet_hours",
    "llm.temperature",
  ]);
  assert.equal(running.llm, before, "updated in place: holders of the object see the change");
  assert.equal(running.llm.temperature, 1.1);
  assert.equal(running.heartbeat.quiet_hours, null);
  assert.equal(running.llm.base_url, "http://localhost:11434");
  assert.equal(running.web.port, 8420);
  assert.deepEqual(running.watchers, []);
  assert.deepEqual(applyLiveConfig(running, next), [], "nothing left to apply");
});
