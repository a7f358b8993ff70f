/**
 * Issue 23, class 2: personalities are looked up by name, never by path, on every surface. A path
 * (absolute, `./`, `../`, `~/`, URL-encoded through the dashboard) never reads a file: the
 * dashboard page, `show`, `use`, `-P`/a task's personality, RADAR_PERSONALITY and
 * `radar.personality` all see a name that matches nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runtimeDashboard } from "../web/web_fixture.ts";
import { catalogFixture, writeFiles } from "./helpers.ts";

const secret = "ntfy_token: tk_SECRET_personality_oracle";

Deno.test("the dashboard's personality page is no file-read oracle (URL-encoded paths)", async () => {
  const dashboard = await runtimeDashboard("radar-personality-oracle-", secret);
  const { directory, configPath, dataDir, radar, deps, app, auth } = dashboard;
  writeFiles(directory, { ".ssh/id_rsa": `${secret}\n`, "notes/mine.md": `${secret}\n` });
  try {
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
    assert.equal((await radar.personalities()).activeName(), "default");
  } finally {
    dashboard.close();
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
