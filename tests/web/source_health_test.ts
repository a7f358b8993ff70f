import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { sourceJobs } from "../../src/sources/source_jobs.ts";
import { SqliteSourceStore } from "../../src/sources/source_store.ts";
import { calendarSourceName } from "../../src/sources/calendar/calendar_check.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { groupSourceHealth, healthClass } from "../../web/views/source_health.tsx";
import { createWebFixture } from "./web_fixture.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";

const password = "hunter2-correct-horse";

Deno.test("the dashboard shows each source's health from the real runtime, never a password", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-web-sources-" });
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    [
      'llm:\n  base_url: "http://127.0.0.1:9"',
      "email:",
      "  timeout_seconds: 2",
      "  accounts:",
      "    - name: work",
      "      host: 127.0.0.1",
      "      port: 9", // nothing listens: the check fails
      "      tls: none",
      "      user: me",
      `      password_cmd: "echo ${password}"`,
      "calendar:",
      "  calendars:",
      "    - name: family",
      `      ics: "${join(directory, "family.ics")}"`,
      "checks:",
      "  - name: disk-space",
      '    command: ["df", "-h"]',
      "tools:",
      "  exec:",
      "    sandbox: false # so checks cannot run: the card says why",
      "github:",
      "  enabled: true",
      '  gh_path: "gh-that-is-not-installed"',
      "",
    ].join("\n"),
  );
  const radar = openRadar({
    configPath,
    env: { HOME: directory, RADAR_DATA_DIR: join(directory, "data"), PATH: "/usr/bin:/bin" },
    cwd: directory,
    logLevel: "error",
  });
  try {
    // The daemon's email job runs once for real: it reads the password and fails to connect.
    const db = openDatabase(radar.databasePath);
    const [email] = sourceJobs({
      config: radar.config,
      db,
      queue: { enqueue: () => undefined },
      clock: radar.clock,
      logger: radar.logger,
      env: { PATH: "/usr/bin:/bin" },
    });
    await email.run(new Date(), AbortSignal.timeout(10_000));
    // A server that echoes the password in its error: the dashboard masks it all the same.
    new SqliteSourceStore(db).recordFailure(
      calendarSourceName("family"),
      new Date("2026-11-23T09:00:00Z"),
      `401 for user me with password ${password}`,
      () => new Date("2026-11-23T09:05:00Z"),
    );
    const deps = webDependenciesFromRuntime(radar, { env: { PATH: "/usr/bin:/bin" } });
    const app = createApp(deps);
    const html = await (await app.request("/", {
      headers: { Authorization: `Bearer ${deps.authToken}` },
    })).text();
    const section = html.slice(html.indexOf('id="source-health"'));
    assert.match(section, /<h2>Sources<\/h2>/);
    assert.match(section, /<strong>email work<\/strong><span class="bad"> FAILING \(1×/);
    assert.match(section, /<strong>calendar family<\/strong><span class="bad"> FAILING/);
    assert.match(section, /401 for user me with password \*\*\*\*\*\*\*\*/);
    assert.match(section, /<strong>github<\/strong><span class="muted"> not used: the gh CLI/);
    assert.match(
      section,
      /<strong>checks<\/strong><span class="bad"> 1 configured, NOT RUNNING: tools.exec.sandbox is false/,
    );
    assert.ok(!html.includes(password), "the password never reaches the page");
    assert.ok(!html.includes("password_cmd"), "nor the command that prints it");
    db.close();
  } finally {
    radar.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("source health lines are grouped, classed and escaped; absent → no section", async () => {
  assert.deepEqual(
    groupSourceHealth(["sources:", "  email:a: ok (last check x)", "github:    not used: off"]),
    [
      { heading: "sources:", lines: ["email:a: ok (last check x)"] },
      { heading: "github:    not used: off", lines: [] },
    ],
  );
  assert.equal(healthClass("  email:a: FAILING (2× in a row)"), "bad");
  assert.equal(healthClass("  nightly: failing (exit 3) (last run …)"), "bad");
  assert.equal(healthClass("  email:a: ok (last check x)"), "good");
  assert.equal(healthClass("  calendar:b: not checked yet (checked by radar serve)"), "muted");

  const fixture = createWebFixture({
    extra: {
      sourceHealth: () => ["checks:", "  <img src=x onerror=alert(1)>: FAILING TO RUN: <b>x</b>"],
    },
  });
  const bare = createWebFixture();
  try {
    const html = await (await fixture.app.request("/")).text();
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.ok(!html.includes("<img src=x"), "lines are text");
    assert.ok(!html.includes("<b>x</b>"));
    const none = await (await bare.app.request("/")).text();
    assert.ok(!none.includes('id="source-health"'));
  } finally {
    fixture.close();
    bare.close();
  }
});
