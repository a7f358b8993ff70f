import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  checkConfigInChild,
  checkedConfig,
  configCheckCommand,
  configFromChild,
} from "../../src/daemon/config_check.ts";
import { configCheckFlag } from "../../src/daemon/config_check_flag.ts";
import { daemonPermissionFlags } from "../../src/daemon/daemon_command.ts";
import { loadConfig, type LoadOptions } from "../../src/config/loader.ts";
import { readRememberedConfig, rememberedConfigName } from "../../src/config/remembered_config.ts";
import { readTextFileIfExists } from "../../src/config/config_file.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { createRadarHome, radarCommand, startRadarServe } from "../helpers/radar_process.ts";
import {
  newestSchemaVersion,
  storedSchemaVersion,
} from "../../src/adapters/sqlite/database_file.ts";

const brokenConfig = "heartbeat:\n  interval_minutes: often\n";

/** Options for a config in a new temp home whose data folder does not exist yet. */
function firstStart(configText: string, env: Record<string, string> = {}) {
  const home = Deno.makeTempDirSync({ prefix: "radar-config-check-" });
  const dataDir = join(home, "data");
  const configPath = join(home, "radar.yaml");
  Deno.writeTextFileSync(configPath, configText);
  const options: LoadOptions = {
    explicitPath: configPath,
    env: {
      HOME: home,
      PATH: Deno.env.get("PATH") ?? "",
      RADAR_DATA_DIR: dataDir,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      ...env,
    },
    cwd: home,
    readTextFile: readTextFileIfExists,
  };
  return { home, dataDir, configPath, options };
}

Deno.test("a first start validates in the child, which makes the data folder and remembers the config", async () => {
  const { home, dataDir, options } = firstStart("heartbeat:\n  interval_minutes: 45\n");
  try {
    assert.equal(readRememberedConfig(options), undefined);
    assert.equal(await checkConfigInChild(options), true);
    assert.ok(existsSync(join(dataDir, rememberedConfigName)), "the child wrote the entry");
    const remembered = readRememberedConfig(options);
    assert.ok(remembered, "the entry matches this config");
    assert.equal(remembered.dataDir, dataDir);
    assert.equal(remembered.config.heartbeat.interval_minutes, 45);
    assert.deepEqual(await checkedConfig(options), remembered);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("a first start: the child also creates the database at the newest schema and closes it", async () => {
  const { home, dataDir, options } = firstStart("heartbeat:\n  interval_minutes: 45\n");
  const database = join(dataDir, "radar.db");
  try {
    assert.equal(await checkConfigInChild(options), true);
    assert.equal(existsSync(`${database}-wal`), false, "closed: the -wal was checkpointed away");
    // What openCurrentDatabase reads: at the newest version the daemon loads no migration.
    assert.equal(storedSchemaVersion(database), newestSchemaVersion);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("a database the child cannot open is left untouched for the daemon to report", async () => {
  const { home, dataDir, options } = firstStart("heartbeat:\n  interval_minutes: 45\n");
  const database = join(dataDir, "radar.db");
  const garbage = "this is not a SQLite database\n".repeat(200);
  try {
    Deno.mkdirSync(dataDir);
    Deno.writeTextFileSync(database, garbage);
    assert.equal(await checkConfigInChild(options), true, "the config itself is valid");
    assert.equal(Deno.readTextFileSync(database), garbage);
    assert.deepEqual(Deno.readDirSync(dataDir).map((entry) => entry.name).toArray().sort(), [
      rememberedConfigName,
      "radar.db",
    ]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("an invalid config: the child fails, makes no folder, and the error is loadConfig's own", async () => {
  const { home, dataDir, options } = firstStart(brokenConfig);
  try {
    assert.equal(await checkConfigInChild(options), false);
    assert.equal(existsSync(dataDir), false);
    const expected = (() => {
      try {
        loadConfig(options);
      } catch (error) {
        return error as Error;
      }
      assert.fail("the config is invalid");
    })();
    await assert.rejects(checkedConfig(options), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, expected.message);
      return true;
    });
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("the config watcher's path: the child's remembered config, or undefined to validate in-process", async () => {
  const valid = firstStart("heartbeat:\n  interval_minutes: 50\n");
  const broken = firstStart(brokenConfig);
  try {
    const loaded = await configFromChild(valid.options);
    assert.equal(loaded?.config.heartbeat.interval_minutes, 50);
    assert.deepEqual(loaded, loadConfig(valid.options));
    assert.equal(await configFromChild(broken.options), undefined);
  } finally {
    Deno.removeSync(valid.home, { recursive: true });
    Deno.removeSync(broken.home, { recursive: true });
  }
});

Deno.test("a secret from the environment is never remembered: validated in-process, no entry", async () => {
  const { home, dataDir, options } = firstStart("heartbeat:\n  interval_minutes: 45\n", {
    RADAR_LLM_API_KEY: "sk-from-the-environment",
  });
  try {
    Deno.mkdirSync(dataDir); // writable: only the secret keeps the entry off the disk
    const loaded = await checkedConfig(options);
    assert.equal(loaded.config.heartbeat.interval_minutes, 45);
    assert.equal(existsSync(join(dataDir, rememberedConfigName)), false);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("the child's command: the binary's hidden mode, or Deno with the daemon's permissions", () => {
  assert.deepEqual(configCheckCommand(true, "/opt/radar", "/etc/radar.yaml"), {
    program: "/opt/radar",
    args: [configCheckFlag, "/etc/radar.yaml"],
  });
  assert.deepEqual(configCheckCommand(true, "/opt/radar", undefined).args, [configCheckFlag]);
  const run = configCheckCommand(false, "/usr/bin/deno", "radar.yaml");
  assert.equal(run.program, "/usr/bin/deno");
  for (const flag of daemonPermissionFlags) assert.ok(run.args.includes(flag), flag);
  const entry = run.args.at(-2)!;
  assert.match(entry, /src\/daemon\/config_check_process\.ts$/);
  assert.ok(existsSync(entry));
  assert.equal(run.args.at(-1), "radar.yaml");
});

Deno.test("main.ts's hidden mode checks and remembers the config (the compiled binary's path)", async () => {
  const radar = createRadarHome("heartbeat:\n  interval_minutes: 45\n");
  try {
    const run = await radarCommand(radar.home, [configCheckFlag, radar.configPath]).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.ok(existsSync(join(radar.dataDir, rememberedConfigName)));
    const broken = join(radar.home, "broken.yaml");
    Deno.writeTextFileSync(broken, brokenConfig);
    const failed = await radarCommand(radar.home, [configCheckFlag, broken]).output();
    assert.equal(failed.code, 2);
    assert.match(new TextDecoder().decode(failed.stderr), /^radar: Invalid config .*\n$/);
  } finally {
    radar.remove();
  }
});

Deno.test("radar serve: a first start remembers the config; a broken one prints the same one line, exit 2", async () => {
  const radar = createRadarHome("heartbeat:\n  interval_minutes: 45\n");
  try {
    const serving = await startRadarServe(radar);
    assert.ok(existsSync(join(radar.dataDir, rememberedConfigName)));
    assert.equal(await serving.stop(), 0);
    Deno.writeTextFileSync(radar.configPath, brokenConfig);
    const run = await radar.command(["serve", "--port", "0"]).output();
    assert.equal(run.code, 2);
    const expected = (() => {
      try {
        loadConfig({
          explicitPath: radar.configPath,
          env: { HOME: radar.home, RADAR_DATA_DIR: radar.dataDir },
          cwd: radar.home,
          readTextFile: readTextFileIfExists,
        });
      } catch (error) {
        return (error as Error).message;
      }
      assert.fail("the config is invalid");
    })();
    assert.equal(new TextDecoder().decode(run.stderr), `radar: ${expected}\n`);
  } finally {
    radar.remove();
  }
});
