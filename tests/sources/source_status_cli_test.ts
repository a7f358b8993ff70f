/**
 * `radar status` prints the sources' health records (one port, `radar.sourceHealth`): email,
 * calendar, checks and GitHub lines formatted from the fields, the records themselves in
 * `--json`, and a known secret in a stored error masked in both.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { runCli } from "../../src/cli/program.ts";
import type { SourceHealthRecord } from "../../src/core/source_ports.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { emailSourceName } from "../../src/sources/email/email_check.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import { SqliteSourceStore } from "../../src/adapters/sqlite/source_store.ts";
import { memoryIo } from "../helpers/memory_io.ts";

const apiKey = "sk-status-secret-4471";

Deno.test("radar status prints each source's record; --json has the records; secrets masked", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-source-status-" });
  try {
    const env = {
      HOME: home,
      RADAR_DATA_DIR: join(home, "data"),
      RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
      PATH: "/usr/bin:/bin",
    };
    const config = join(home, "radar.yaml");
    Deno.writeTextFileSync(
      config,
      [
        `llm:\n  api_key: "${apiKey}"`,
        "email:",
        "  accounts:",
        "    - { name: home, host: h, user: u, password_env: P }",
        "    - { name: work, host: w, user: u, password_env: P }",
        "calendar:",
        `  calendars: [{ name: family, ics: "${join(home, "family.ics")}" }]`,
        "checks:",
        '  - { name: disk, command: ["df", "-h"] }',
        "tools:\n  exec:\n    sandbox: false",
        "github:\n  enabled: false",
        "",
      ].join("\n"),
    );
    const radar = await openRadar({ configPath: config, env, cwd: home, logLevel: "error" });
    const db = openDatabase(radar.databasePath);
    const store = new SqliteSourceStore(db);
    store.recordSuccess(
      emailSourceName("home"),
      new Date("2026-11-23T10:00:00Z"),
      new Date("2026-11-23T10:05:00Z"),
    );
    for (const minute of ["10:00", "10:05"]) {
      store.recordFailure(
        emailSourceName("work"),
        new Date(`2026-11-23T${minute}:00Z`),
        `w: login refused for key ${apiKey}`,
        () => new Date("2026-11-23T10:20:00Z"),
      );
    }
    db.close();
    const records = await radar.sourceHealth.records(env);
    radar.close();

    assert.deepEqual(
      records,
      [
        {
          kind: "email",
          name: "home",
          state: "ok",
          lastCheckAt: "2026-11-23T10:00:00.000Z",
          failures: 0,
        },
        {
          kind: "email",
          name: "work",
          state: "failing",
          lastCheckAt: "2026-11-23T10:05:00.000Z",
          nextCheckAt: "2026-11-23T10:20:00.000Z",
          lastError: "w: login refused for key ********",
          failures: 2,
        },
        {
          kind: "calendar",
          name: "family",
          state: "unchecked",
          failures: 0,
          note: "checked by radar serve",
        },
        {
          kind: "check",
          name: "disk",
          state: "failing",
          lastError: "not running: tools.exec.sandbox is false",
          failures: 0,
        },
        {
          kind: "github",
          name: "github",
          state: "disabled",
          failures: 0,
          note: "off (github.enabled is false); no github tool or events",
        },
      ] satisfies SourceHealthRecord[],
    );

    const expected = [
      "sources:",
      "  email home: ok (last check 2026-11-23 10:00 UTC)",
      "  email work: FAILING (2× in a row, last 2026-11-23 10:05 UTC; next try 2026-11-23 10:20 UTC): " +
      "w: login refused for key ********",
      "  calendar family: not checked yet (checked by radar serve)",
      "checks:",
      "  disk: FAILING: not running: tools.exec.sandbox is false",
      "github:    not used: off (github.enabled is false); no github tool or events",
    ];
    assert.deepEqual(sourceHealthLines(records), expected);

    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["--config", config, "status"], io), 1, "exit 1: no model server");
    const out = io.out.join("");
    assert.ok(out.includes(`\n${expected.join("\n")}\n`), out);
    assert.ok(!out.includes(apiKey), "the stored error's secret is masked");

    const json = memoryIo(env, { cwd: home });
    await runCli(["--config", config, "status", "--json"], json);
    const parsed = JSON.parse(json.out.join(""));
    assert.deepEqual(parsed.sources, records);
    assert.ok(!json.out.join("").includes(apiKey));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
