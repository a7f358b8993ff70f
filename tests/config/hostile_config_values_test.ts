/**
 * Config values that used to crash a command: an unknown time zone (a typo or an invalid byte
 * sequence) gave exit 1 "unexpected failure: Invalid time zone specified"; it is now a config
 * error naming the key (exit 2, one line). Deeply nested YAML stays a one-line config error too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";

async function configShow(env: Record<string, string>, home: string, path: string) {
  const io = memoryIo(env, { cwd: home });
  const code = await runCli(["--config", path, "config", "show"], io);
  return { code, stderr: io.err.join("") };
}

Deno.test("an unknown radar.timezone is a config error naming the key, exit 2", async () => {
  await withCliHome(async (env, home) => {
    for (const zone of ["Mars/Olympus", "\ufffd\ufffd", "UTC+25"]) {
      const path = join(home, "radar.yaml");
      Deno.writeTextFileSync(path, `radar:\n  timezone: ${JSON.stringify(zone)}\n`);
      const run = await configShow(env, home, path);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.match(
        run.stderr,
        /^radar: Invalid config .*radar\.timezone: expected an IANA time zone/,
      );
    }
    const path = join(home, "good.yaml");
    Deno.writeTextFileSync(path, 'radar:\n  timezone: "Europe/Amsterdam"\n');
    assert.equal((await configShow(env, home, path)).code, 0);
  });
});

Deno.test("YAML nested 100,000 deep is a one-line config error, exit 2", async () => {
  await withCliHome(async (env, home) => {
    const path = join(home, "deep.yaml");
    Deno.writeTextFileSync(path, `x: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
    const run = await configShow(env, home, path);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.match(run.stderr, /^radar: Invalid config .*deep\.yaml/);
  });
});
