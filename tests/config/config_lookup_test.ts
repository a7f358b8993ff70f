/**
 * Where the config comes from: `--config`, RADAR_CONFIG, then $XDG_CONFIG_HOME/radar/radar.yaml.
 * A radar.yaml in the current folder is never read implicitly; relative paths on the command line
 * resolve against the folder the user ran the command in (INIT_CWD under `deno task`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lookUpConfigFile, readTextFileIfExists } from "../../src/config/config_file.ts";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { runRadar, writeUserConfig } from "../helpers/radar_process.ts";

function withHome(run: (home: string) => Promise<void> | void) {
  return async () => {
    const home = Deno.makeTempDirSync({ prefix: "radar-config-" });
    try {
      await run(home);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  };
}

const look = (home: string, options: { explicitPath?: string; env?: Record<string, string> }) =>
  lookUpConfigFile({
    explicitPath: options.explicitPath,
    env: { HOME: home, ...options.env },
    cwd: home,
    readTextFile: readTextFileIfExists,
  });

Deno.test(
  "a radar.yaml in the current folder is ignored and said to be; the user's config wins",
  withHome((home) => {
    Deno.writeTextFileSync(join(home, "radar.yaml"), "llm:\n  base_url: http://evil.example\n");
    assert.equal(look(home, {}).path, undefined, "embedded defaults, not ./radar.yaml");
    const user = writeUserConfig(home, "llm: {}\n");
    const lookup = look(home, {});
    assert.equal(lookup.path, user);
    assert.deepEqual(lookup.candidates.map((c) => [c.source, c.state]), [
      ["user config folder", "used"],
      ["current folder", "ignored"],
    ]);
    assert.match(lookup.candidates[1].reason!, /use --config \.\/radar\.yaml/);
  }),
);

Deno.test(
  "--config beats RADAR_CONFIG beats XDG_CONFIG_HOME; relative paths resolve against the cwd",
  withHome((home) => {
    Deno.writeTextFileSync(join(home, "a.yaml"), "{}\n");
    Deno.writeTextFileSync(join(home, "b.yaml"), "{}\n");
    Deno.mkdirSync(join(home, "xdg", "radar"), { recursive: true });
    Deno.writeTextFileSync(join(home, "xdg", "radar", "radar.yaml"), "{}\n");
    const env = { RADAR_CONFIG: "b.yaml", XDG_CONFIG_HOME: join(home, "xdg") };
    const both = look(home, { explicitPath: "a.yaml", env });
    assert.equal(both.path, join(home, "a.yaml"));
    assert.deepEqual(both.candidates.map((c) => [c.source, c.state, c.reason]), [
      ["--config", "used", undefined],
      ["RADAR_CONFIG", "ignored", "--config wins"],
      ["user config folder", "ignored", "--config wins"],
    ]);
    assert.equal(look(home, { env }).path, join(home, "b.yaml"));
    assert.equal(
      look(home, { env: { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME } }).path,
      join(home, "xdg", "radar", "radar.yaml"),
    );
    assert.throws(() => look(home, { explicitPath: "missing.yaml" }), /file not found/);
  }),
);

Deno.test(
  "radar config path --json names the winner and the ignored candidates",
  withHome(async (home) => {
    Deno.writeTextFileSync(join(home, "radar.yaml"), "{}\n");
    const io = memoryIo({ HOME: home, RADAR_DATA_DIR: join(home, "data") }, { cwd: home });
    assert.equal(await runCli(["config", "path", "--json"], io), 0);
    const report = JSON.parse(io.out.join(""));
    assert.equal(report.config, null);
    assert.equal(report.dataDir, join(home, "data"));
    assert.deepEqual(report.candidates.map((c: { state: string }) => c.state), [
      "absent",
      "ignored",
    ]);
    const text = memoryIo({ HOME: home }, { cwd: home });
    assert.equal(await runCli(["config", "path"], text), 0);
    assert.match(text.out.join(""), /ignored current folder: .*radar\.yaml \(never read/);
  }),
);

Deno.test(
  "under deno task, --config x.yaml resolves against INIT_CWD, not the process's folder",
  withHome(async (home) => {
    const user = join(home, "user-folder");
    Deno.mkdirSync(user);
    Deno.writeTextFileSync(join(user, "mine.yaml"), "radar:\n  name: Mine\n");
    const run = await runRadar(home, ["--config", "mine.yaml", "config", "path"], {
      env: { INIT_CWD: user },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^config: ${join(user, "mine.yaml")}\n`));
  }),
);

Deno.test(
  "a radar.yaml dropped in the working folder cannot send radar ask to another server",
  withHome(async (home) => {
    const real = FakeLlmServer.start();
    const evil = FakeLlmServer.start();
    try {
      Deno.writeTextFileSync(
        join(home, "radar.yaml"),
        `llm:\n  base_url: "${evil.url}"\n  api_key: "send-it-here"\n`,
      );
      writeUserConfig(home, `llm:\n  base_url: "${real.url}"\n  retries: 0\n`);
      real.reply(ollamaText("From the real server."));
      const run = await runRadar(home, ["ask", "hi"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "From the real server.\n");
      assert.equal(evil.requests.length, 0);
    } finally {
      await real.close();
      await evil.close();
    }
  }),
);
