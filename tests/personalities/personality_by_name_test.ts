/**
 * Issue 23, class 2: personalities are looked up by name, never by path, on every surface. A path
 * (absolute, `./`, `../`, `~/`, URL-encoded through the dashboard) never reads a file: the
 * dashboard page, `show`, `use`, `-P`/a task's personality, RADAR_PERSONALITY and
 * `radar.personality` all see a name that matches nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { catalogFixture, writeFiles } from "./helpers.ts";

const secret = "ntfy_token: tk_SECRET_personality_oracle";

Deno.test("the dashboard's personality page is no file-read oracle (URL-encoded paths)", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-personality-oracle-" });
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(configPath, `llm:\n  base_url: "http://127.0.0.1:9"\n# ${secret}\n`);
  writeFiles(directory, { ".ssh/id_rsa": `${secret}\n`, "notes/mine.md": `${secret}\n` });
  const dataDir = join(directory, "data");
  const env = { HOME: directory, RADAR_DATA_DIR: dataDir, PATH: "/usr/bin:/bin" };
  const radar = openRadar({ configPath, env, cwd: directory, logLevel: "error" });
  try {
    const deps = webDependenciesFromRuntime(radar, { env });
    const app = createApp(deps);
    const auth = { Authorization: `Bearer ${deps.authToken}` };
    const attempts = [
      configPath,
      join(directory, ".ssh/id_rsa"),
      join(dataDir, "dashboard_token"),
      "~/.ssh/id_rsa",
      "./notes/mine.md",
      "../" + directory.split("/").at(-1) + "/notes/mine.md",
      "notes/mine.md",
    ];
    for (const attempt of attempts) {
      const response = await app.request(`/personalities/${encodeURIComponent(attempt)}`, {
        headers: auth,
      });
      const html = await response.text();
      assert.ok(!html.includes("tk_SECRET"), `${attempt} leaked the file`);
      assert.ok(!html.includes(deps.authToken), `${attempt} leaked the dashboard token`);
      assert.ok([400, 404].includes(response.status), `${attempt}: ${response.status}`);
    }
    const used = await app.request(
      `/personalities/${encodeURIComponent(configPath)}/use`,
      { method: "POST", headers: { ...auth, "Content-Type": "application/x-www-form-urlencoded" } },
    );
    assert.ok([400, 404].includes(used.status));
    await used.body?.cancel();
    assert.equal(radar.personalities.activeName(), "default");
  } finally {
    radar.close();
    Deno.removeSync(directory, { recursive: true });
  }
});

Deno.test("show, use, -P, tasks, RADAR_PERSONALITY and radar.personality never read a path", () => {
  const fixture = catalogFixture({});
  try {
    writeFiles(fixture.home, { "elsewhere/mine.md": `---\nname: mine\n---\n${secret}\n` });
    const paths = [
      join(fixture.home, "elsewhere/mine.md"),
      join(fixture.home, "elsewhere"),
      "./elsewhere/mine.md",
      "~/elsewhere/mine.md",
    ];
    const { catalog } = fixture;
    for (const path of paths) {
      assert.equal(catalog.show(path), undefined, path);
      assert.throws(() => catalog.use(path), /personality/, path);
      for (const origin of ["option", "task", "heartbeat"] as const) {
        assert.throws(() => catalog.forRun({ name: path, origin }), (error: Error) => {
          assert.ok(!error.message.includes("tk_SECRET"), error.message);
          return /by name/.test(error.message);
        });
      }
    }
    // The environment and the config name a personality too: a path there is a name for nothing.
    fixture.config.radar.personality = paths[0];
    assert.throws(() => catalog.forRun(), /radar\.personality: .*by name/);
    assert.ok(!catalog.list().some((row) => row.source.includes("elsewhere")));
  } finally {
    fixture.close();
  }
  const fromEnv = catalogFixture({ env: { RADAR_PERSONALITY: "~/elsewhere/mine.md" } });
  try {
    writeFiles(fromEnv.home, { "elsewhere/mine.md": `${secret}\n` });
    assert.throws(() => fromEnv.catalog.forRun(), /RADAR_PERSONALITY: .*by name/);
    assert.ok(!JSON.stringify(fromEnv.catalog.list()).includes("tk_SECRET"));
  } finally {
    fromEnv.close();
  }
});
