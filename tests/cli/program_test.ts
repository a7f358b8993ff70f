import { writeUserConfig } from "../helpers/radar_process.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";

Deno.test("radar memory add/list/search/forget round-trips through the database", async () => {
  await withCliHome(async (env, home) => {
    let io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "add", "Favourite", "tea", "is", "Earl", "Grey"], io), 0);
    assert.equal(io.out.join(""), "Remembered #1.\n");
    io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "search", "tea"], io), 0);
    assert.match(io.out.join(""), /1 +user_preference +Favourite tea is Earl Grey/);
    io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "forget", "1"], io), 0);
    io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["memory", "list"], io), 0);
    assert.equal(io.out.join(""), "No facts remembered yet.\n");
    const mode = Deno.statSync(join(home, "data")).mode! & 0o777;
    assert.equal(mode, 0o700, "data directory is owner-only");
  });
});

Deno.test("radar exits 2 with one readable line on usage errors", async () => {
  await withCliHome(async (env, home) => {
    const cases: string[][] = [
      ["memory", "forget", "abc"],
      ["history", "--limit", "-1"],
      ["history", "--kind", "nope"],
      ["nonsense-command"],
      ["memory", "list", "--category", "x"],
      ["plugin", "install", "no-such-folder"],
    ];
    for (const args of cases) {
      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(args, io), 2, args.join(" "));
      const err = io.err.join("");
      assert.ok(err.length > 0, `${args.join(" ")} printed nothing`);
      assert.doesNotMatch(err, /\n\s+at /, "no stack trace");
    }
  });
});

Deno.test("radar exits 2 naming file and key for an invalid config, writing nothing", async () => {
  await withCliHome(async (env, home) => {
    const config = join(home, "bad.yaml");
    Deno.writeTextFileSync(config, "heartbeat:\n  interval_minutes: often\n");
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["--config", config, "status"], io), 2);
    assert.equal(
      io.err.join(""),
      `radar: Invalid config ${config}: heartbeat.interval_minutes: expected number, found "often"\n`,
    );
    assert.throws(() => Deno.statSync(join(home, "data")), Deno.errors.NotFound);
  });
});

Deno.test("radar config show masks secrets and names the source", async () => {
  await withCliHome(async (env, home) => {
    const io = memoryIo({ ...env, RADAR_WEB_AUTH_TOKEN: "hunter2-hunter2-hunter2-x" }, {
      cwd: home,
    });
    assert.equal(await runCli(["config", "show"], io), 0);
    const out = io.out.join("");
    assert.match(out, /^# embedded defaults \(no config file\)/);
    assert.match(out, /auth_token: "\*\*\*\*\*\*\*\*"/);
    assert.doesNotMatch(out, /hunter2/);
  });
});

Deno.test("radar config validate warns about unknown keys and accepts the file", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, "llm:\n  modle: x\n");
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["config", "validate"], io), 0);
    assert.match(io.err.join(""), /Unknown config keys in .*radar\.yaml \(typos\?\): llm\.modle/);
  });
});

Deno.test("radar --version and --help exit 0", async () => {
  await withCliHome(async (env) => {
    let io = memoryIo(env);
    assert.equal(await runCli(["--version"], io), 0);
    assert.match(io.out.join(""), /^\d+\.\d+\.\d+\n$/);
    io = memoryIo(env);
    assert.equal(await runCli(["memory", "--help"], io), 0);
    assert.match(io.out.join(""), /Usage: radar memory/);
  });
});
