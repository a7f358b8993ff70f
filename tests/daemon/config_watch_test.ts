/**
 * radar.yaml edited by hand under `radar serve`: live keys apply at once (as the dashboard's save
 * applies them), the rest is named by `radar status` as needing a restart, a broken edit leaves
 * the running config alone and says why. In-process with the check called directly, then through
 * a real daemon subprocess and its file watcher.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  asTheDaemonRuns,
  configStateOf,
  configStatePath,
  readConfigState,
  watchConfigFile,
} from "../../src/daemon/config_watch.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { configStateLines } from "../../src/cli/commands/daemon_status.ts";
import { budgetStatusLines } from "../../src/cli/commands/budget_status.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import {
  createRadarHome,
  type RadarHome,
  runRadar,
  startRadarServe,
} from "../helpers/radar_process.ts";

const baseYaml = `radar:\n  timezone: "UTC"\nheartbeat:\n  interval_minutes: 15\n`;

/** `radar status` once the running daemon noticed the edit (it names a restart), or after 20 s. */
async function statusOnceNoticed(radar: RadarHome): Promise<string> {
  const deadline = performance.now() + 20_000;
  let status = "";
  while (performance.now() < deadline) {
    status = (await runRadar(radar.home, ["status"], {
      env: { RADAR_CONFIG: radar.configPath, RADAR_LLM_BASE_URL: "http://127.0.0.1:9" },
    })).stdout;
    if (/restart needed/.test(status)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return status;
}

Deno.test("a hand edit of radar.yaml applies its live keys and names the ones needing a restart", async () => {
  await withTestDaemon({ yaml: baseYaml }, async ({ runtime, dir }) => {
    const configPath = join(dir, "radar.yaml");
    const watch = watchConfigFile(runtime, {
      env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
      cwd: dir,
    });
    const state = () => readConfigState(runtime.dataDir, runtime.process.pid);
    await watch.check();
    assert.equal(state(), undefined, "nothing changed, nothing recorded");

    Deno.writeTextFileSync(
      configPath,
      `${baseYaml.replace("15", "30")}llm:\n  temperature: 0.7\nweb:\n  port: 9001\n`,
    );
    await watch.check();
    assert.equal(runtime.config.heartbeat.interval_minutes, 30, "applied without a restart");
    assert.equal(runtime.config.llm.temperature, 0.7);
    assert.equal(runtime.config.web.port, 8420, "the dashboard keeps its port until a restart");
    assert.deepEqual(state()?.restartKeys, ["web.port"]);
    assert.deepEqual(state()?.applied, ["llm.temperature", "heartbeat.interval_minutes"]);
    assert.deepEqual(configStateLines(state()), [
      `  restart needed to apply ${configPath}: web.port (radar stop, then radar start; ` +
      `the other changes are applied)`,
    ]);

    Deno.writeTextFileSync(configPath, baseYaml.replace("15", "-5"));
    await watch.check();
    assert.equal(runtime.config.heartbeat.interval_minutes, 30, "a broken file is not used");
    assert.match(
      configStateLines(state())[0],
      /changed but is not used \(the daemon keeps its config\): .*heartbeat\.interval_minutes/,
    );

    Deno.writeTextFileSync(configPath, baseYaml);
    await watch.check();
    assert.equal(runtime.config.heartbeat.interval_minutes, 15);
    assert.deepEqual(configStateLines(state()), [], "back in step with the file");
    // Another daemon's record is not this one's.
    assert.equal(readConfigState(runtime.dataDir, runtime.process.pid + 1), undefined);
    assert.ok(Deno.statSync(configStatePath(runtime.dataDir)).isFile);
  });
});

Deno.test("radar serve notices a hand edit of its radar.yaml and radar status names the restart keys", async () => {
  const radar = createRadarHome(baseYaml);
  const serving = await startRadarServe(radar);
  try {
    Deno.writeTextFileSync(
      radar.configPath,
      `${baseYaml.replace("15", "45")}web:\n  auth_token: "a-long-enough-dashboard-token-123"\n`,
    );
    const status = await statusOnceNoticed(radar);
    assert.match(status, /restart needed to apply .*radar\.yaml: web\.auth_token \(radar stop/);
    const log = Deno.readTextFileSync(join(radar.dataDir, "logs", "radar.log"));
    assert.match(log, /radar\.yaml changed.*heartbeat\.interval_minutes/);
  } finally {
    await serving.stop();
    radar.remove();
  }
});

Deno.test("a hand edit of budget: applies at once: the daemon pauses when radar status says PAUSED", async () => {
  await withTestDaemon({ yaml: baseYaml }, async ({ runtime, dir, clock }) => {
    const watch = watchConfigFile(runtime, {
      env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
      cwd: dir,
    });
    runtime.budget.spent(
      "summary",
      { promptTokens: 400, completionTokens: 100 },
      clock.now(),
      "a summary",
    );
    assert.equal(runtime.budget.pausedFor({ kind: "heartbeat" }), undefined, "no limit yet");
    Deno.writeTextFileSync(
      join(dir, "radar.yaml"),
      `${baseYaml}budget:\n  daily_tokens: 300\n  task_daily_tokens: 50\n`,
    );
    await watch.check();
    assert.deepEqual(readConfigState(runtime.dataDir, runtime.process.pid)?.restartKeys, []);
    assert.match(
      runtime.budget.pausedFor({ kind: "heartbeat" }) ?? "not paused",
      /^paused by the budget: /,
      "the running daemon pauses, as the status line says",
    );
    assert.match(budgetStatusLines(runtime)[0], /^budget: {4}PAUSED/);
    await runtime.budget.sent();
  });
});

Deno.test("radar status shows a key that needs a restart as the daemon runs it, not as the file says", async () => {
  const radar = createRadarHome(baseYaml);
  const inbox = join(radar.home, "inbox");
  Deno.mkdirSync(inbox);
  const serving = await startRadarServe(radar);
  try {
    Deno.writeTextFileSync(
      radar.configPath,
      `${baseYaml}watchers:\n  - path: "${inbox}"\n    pattern: "*.pdf"\n    action: "new_pdf"\n`,
    );
    const status = await statusOnceNoticed(radar);
    assert.match(status, /restart needed to apply .*radar\.yaml: watchers \(radar stop/);
    assert.match(status, /^watchers: {2}none/m, "the daemon watches nothing yet");
    assert.ok(!status.includes(`${inbox} *.pdf`), status);
  } finally {
    await serving.stop();
    radar.remove();
  }
});

Deno.test("radar status reads the daemon's config state once: values and 'restart needed' agree", () => {
  const dataDir = Deno.makeTempDirSync();
  try {
    // The command's look: no daemon runs, so the config stays as the file says and nothing is due.
    const config = defaultConfig();
    asTheDaemonRuns(config, dataDir);
    // A daemon records a change a moment later (the race a loaded machine shows).
    Deno.writeTextFileSync(
      configStatePath(dataDir),
      JSON.stringify({
        pid: 4242,
        path: "radar.yaml",
        checkedAt: "2026-12-07T10:00:00Z",
        restartKeys: ["watchers"],
        applied: [],
        running: { watchers: [] },
      }),
    );
    assert.equal(configStateOf(config, dataDir, 4242), undefined, "the look the values came from");
    assert.deepEqual(configStateOf(defaultConfig(), dataDir, 4242)?.restartKeys, ["watchers"]);
  } finally {
    Deno.removeSync(dataDir, { recursive: true });
  }
});
