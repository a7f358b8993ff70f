import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { sourceJobs } from "../../src/sources/source_jobs.ts";
import { sqliteSourceStores } from "../../src/adapters/sqlite/stores.ts";
import { calendarSourceName } from "../../src/sources/calendar/calendar_check.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { sourceFacts } from "../../web/views/source_health.tsx";
import type { SourceHealthRecord } from "../../src/core/source_ports.ts";
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
  const radar = await openRadar({
    configPath,
    env: { HOME: directory, RADAR_DATA_DIR: join(directory, "data"), PATH: "/usr/bin:/bin" },
    cwd: directory,
    logLevel: "error",
  });
  try {
    // The daemon's email job runs once for real: it reads the password and fails to connect.
    const db = openDatabase(radar.databasePath);
    const stores = sqliteSourceStores(db);
    const [email] = sourceJobs({
      config: radar.config,
      stores,
      queue: { enqueue: () => undefined },
      clock: radar.clock,
      logger: radar.logger,
      env: { PATH: "/usr/bin:/bin" },
      secrets: radar.secrets,
    });
    await email.run(new Date(), AbortSignal.timeout(10_000));
    // A server that echoes the password in its error: the dashboard masks it all the same.
    stores.health.recordFailure(
      calendarSourceName("family"),
      new Date("2026-11-23T09:00:00Z"),
      `401 for user me with password ${password}`,
      () => new Date("2026-11-23T09:05:00Z"),
    );
    const deps = await webDependenciesFromRuntime(radar, { env: { PATH: "/usr/bin:/bin" } });
    const app = createApp(deps);
    const html = await (await app.request("/", {
      headers: { Authorization: `Bearer ${deps.authToken}` },
    })).text();
    const section = html.slice(html.indexOf('id="source-health"'));
    assert.match(section, /<h2>Sources<\/h2>/);
    assert.match(
      section,
      /<li data-source="email work" data-state="failing"><strong>email work<\/strong> <span class="bad">failing<\/span><span class="muted"> · 1× in a row · last check \d{4}-\d\d-\d\d \d\d:\d\d UTC · next try [^<]*<\/span><div class="bad">work: [^<]+<\/div><\/li>/,
    );
    assert.match(
      section,
      /<li data-source="calendar family" data-state="failing"><strong>calendar family<\/strong> <span class="bad">failing<\/span>/,
    );
    assert.match(section, /<div class="bad">401 for user me with password \*\*\*\*\*\*\*\*<\/div>/);
    assert.match(
      section,
      /<li data-source="github github" data-state="disabled"><strong>github<\/strong> <span class="muted">not used<\/span><span class="muted"> · the gh CLI is not installed/,
    );
    assert.match(
      section,
      /<li data-source="check disk-space" data-state="failing"><strong>disk-space<\/strong> <span class="bad">failing<\/span><div class="bad">not running: tools.exec.sandbox is false<\/div>/,
    );
    for (const title of ["Email and calendars", "Checks", "GitHub"]) {
      assert.ok(section.includes(`<strong>${title}</strong>`), title);
    }
    assert.ok(!section.includes("<strong>MCP servers</strong>"), "no servers: no group");
    assert.ok(!html.includes(password), "the password never reaches the page");
    assert.ok(!html.includes("password_cmd"), "nor the command that prints it");
    db.close();
  } finally {
    radar.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("the Sources card renders records field by field, escaped; absent → no section", async () => {
  const records: SourceHealthRecord[] = [
    {
      kind: "check",
      name: "<img src=x onerror=alert(1)>",
      state: "failing",
      lastCheckAt: "2026-11-23T10:00:00.000Z",
      failures: 0,
      durationMs: 12,
      lastError: "<b>x</b>: exited with 3",
    },
    {
      kind: "mcp",
      name: "files",
      state: "ok",
      failures: 0,
      tools: 3,
      note: "/notes; no network; no env",
    },
    {
      kind: "mcp",
      name: "new",
      state: "disabled",
      failures: 0,
      note: "not approved yet (radar mcp approve new)",
    },
    {
      kind: "email",
      name: "home",
      state: "unchecked",
      failures: 0,
      note: "checked by radar serve",
    },
  ];
  assert.deepEqual(sourceFacts(records[0], "UTC"), ["last check 2026-11-23 10:00 UTC", "12 ms"]);
  assert.deepEqual(sourceFacts(records[1], "UTC"), ["3 tools", "/notes; no network; no env"]);
  const fixture = createWebFixture({ extra: { sourceHealth: () => records } });
  const bare = createWebFixture();
  const empty = createWebFixture({ extra: { sourceHealth: () => [] } });
  try {
    const html = await (await fixture.app.request("/")).text();
    const section = html.slice(html.indexOf('id="source-health"'));
    // Groups in status order, whatever order the records come in.
    const order = ["Email and calendars", "MCP servers", "Checks"].map((title) =>
      section.indexOf(`<strong>${title}</strong>`)
    );
    assert.ok(
      order.every((at, index) => at > 0 && (index === 0 || at > order[index - 1])),
      `${order}`,
    );
    assert.match(section, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.ok(!html.includes("<img src=x"), "fields are text");
    assert.ok(!html.includes("<b>x</b>"));
    assert.match(section, /<div class="bad">&lt;b&gt;x&lt;\/b&gt;: exited with 3<\/div>/);
    assert.match(
      section,
      /<strong>files<\/strong> <span class="good">ok<\/span><span class="muted"> · 3 tools · \/notes; no network; no env<\/span>/,
    );
    assert.match(section, /<strong>new<\/strong> <span class="muted">not used<\/span>/);
    assert.match(
      section,
      /<strong>email home<\/strong> <span class="muted">not checked yet<\/span>/,
    );
    const none = await (await bare.app.request("/")).text();
    assert.ok(!none.includes('id="source-health"'));
    const nothing = await (await empty.app.request("/")).text();
    assert.match(nothing, /No event sources configured\./);
  } finally {
    fixture.close();
    bare.close();
    empty.close();
  }
});
