/** `web.auth_token`: empty (a generated token) or at least 24 characters; shorter is a config error. */
import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { loadConfig } from "../../src/config/loader.ts";
import { minAuthTokenLength } from "../../src/config/schema.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";

const path = "/home/ada/.config/radar/radar.yaml";

function load(text: string, env: Record<string, string> = {}) {
  return loadConfig({
    env: { HOME: "/home/ada", ...env },
    cwd: "/work",
    readTextFile: (candidate) => {
      if (candidate === path) return text;
      throw new Deno.errors.NotFound(candidate);
    },
  });
}

Deno.test("a web.auth_token shorter than 24 characters is a config error naming the key", () => {
  const short = "x".repeat(minAuthTokenLength - 1);
  assert.throws(
    () => load(`web:\n  auth_token: "${short}"\n`),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.exitCode, 2);
      assert.match(error.message, /web\.auth_token: expected at least 24 characters/);
      assert.doesNotMatch(error.message, new RegExp(short), "the secret is not echoed");
      assert.doesNotMatch(error.message, /\n/);
      return true;
    },
  );
  assert.throws(
    () => load("", { RADAR_WEB_AUTH_TOKEN: "short" }),
    /web\.auth_token: expected at least 24/,
  );
});

Deno.test("an empty or long enough web.auth_token is accepted", () => {
  assert.equal(load('web:\n  auth_token: ""\n').config.web.auth_token, "");
  const long = "y".repeat(minAuthTokenLength);
  assert.equal(load(`web:\n  auth_token: "${long}"\n`).config.web.auth_token, long);
});

Deno.test("radar exits 2 with one line when web.auth_token is too short", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, 'web:\n  auth_token: "hunter2"\n');
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["status"], io), 2);
    const err = io.err.join("");
    assert.equal(err.trim().split("\n").length, 1, err);
    assert.match(err, /^radar: .*web\.auth_token: expected at least 24 characters/);
    assert.doesNotMatch(err, /hunter2/);
  });
});
