/**
 * The command line as commander builds it: suggestions, `help`, `version`, completions, the
 * `radar: ` prefix, the not-found exit code, `--json` on listings, `status` exit codes, and a
 * closed pipe.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { ExitCode } from "../../src/core/errors.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { radarEnvironment, radarFlags } from "../helpers/radar_process.ts";

async function cli(env: Record<string, string>, home: string, ...args: string[]) {
  const io = memoryIo(env, { cwd: home });
  const code = await runCli(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

Deno.test("a mistyped command suggests the right one, with the radar: prefix and exit 2", async () => {
  await withCliHome(async (env, home) => {
    const run = await cli(env, home, "histroy");
    assert.equal(run.code, ExitCode.usage);
    assert.match(run.err, /^radar: unknown command 'histroy'\n\(Did you mean history\?\)/);
    const option = await cli(env, home, "history", "--limt", "3");
    assert.equal(option.code, ExitCode.usage);
    assert.match(option.err, /^radar: unknown option '--limt'\n\(Did you mean --limit\?\)/);
  });
});

Deno.test("radar help [command] and radar version", async () => {
  await withCliHome(async (env, home) => {
    const help = await cli(env, home, "help", "memory");
    assert.equal(help.code, 0);
    assert.match(help.out, /Usage: radar memory/);
    assert.match(help.out, /forget/);
    const all = await cli(env, home, "help");
    assert.match(all.out, /completions/);
    const version = await cli(env, home, "version");
    assert.equal(version.code, 0);
    assert.match(version.out, /^\d+\.\d+\.\d+\n$/);
  });
});

Deno.test("an unknown id or name exits 3 for every kind", async () => {
  await withCliHome(async (env, home) => {
    for (
      const args of [
        ["history", "show", "42"],
        ["memory", "forget", "42"],
        ["task", "remove", "42"],
        ["task", "run-now", "42"],
        ["monitor", "check-now", "42"],
        ["monitor", "disable", "42"],
        ["plugin", "show", "nope"],
        ["plugin", "remove", "nope"],
      ]
    ) {
      const run = await cli(env, home, ...args);
      assert.equal(run.code, ExitCode.notFound, `${args.join(" ")}: ${run.err}`);
      assert.match(run.err, /^radar: \S.*\n$/, args.join(" "));
    }
  });
});

Deno.test("--json on every listing and status command prints parseable JSON", async () => {
  const server = FakeLlmServer.start();
  try {
    await withCliHome(async (env, home) => {
      env.RADAR_LLM_BASE_URL = server.url;
      assert.equal((await cli(env, home, "memory", "add", "Likes", "tea")).code, 0);
      const listings: Array<[string[], (value: unknown) => void]> = [
        [["history", "--json"], (value) => assert.deepEqual(value, [])],
        [["memory", "list", "--json"], (value) => {
          assert.equal((value as Array<{ content: string }>)[0].content, "Likes tea");
        }],
        [["memory", "search", "--json", "tea"], (value) => assert.equal((value as []).length, 1)],
        [["task", "list", "--json"], (value) => assert.deepEqual(value, [])],
        [["monitor", "list", "--json"], (value) => assert.deepEqual(value, [])],
        [["plugin", "list", "--json"], (value) => assert.ok("plugins" in (value as object))],
        [["tools", "--json"], (value) => {
          const names = (value as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
          assert.ok(names.includes("remember"));
        }],
        [["log", "tools", "--json"], (value) => assert.deepEqual(value, [])],
        [["heartbeat", "log", "--json"], (value) => assert.deepEqual(value, [])],
        [["config", "show", "--json"], (value) => assert.ok("llm" in (value as object))],
        [["status", "--json"], (value) => {
          assert.equal((value as { llm: { reachable: boolean } }).llm.reachable, true);
        }],
      ];
      for (const [args, check] of listings) {
        const run = await cli(env, home, ...args);
        assert.equal(run.code, 0, `${args.join(" ")}: ${run.err}`);
        check(JSON.parse(run.out));
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("radar status exits 1 when the model server is unreachable, 0 when it answers", async () => {
  const server = FakeLlmServer.start();
  try {
    await withCliHome(async (env, home) => {
      const down = await cli(env, home, "status");
      assert.equal(down.code, ExitCode.failure);
      assert.match(down.out, /reachable: no/);
      assert.equal((await cli({ ...env, RADAR_LLM_BASE_URL: server.url }, home, "status")).code, 0);
    });
  } finally {
    await server.close();
  }
});

Deno.test("radar completions bash completes commands, subcommands and options in bash", async () => {
  await withCliHome(async (env, home) => {
    const script = (await cli(env, home, "completions", "bash")).out;
    const path = join(home, "radar.bash");
    Deno.writeTextFileSync(path, script);
    const complete = async (...words: string[]) => {
      const output = await new Deno.Command("bash", {
        args: [
          "-c",
          `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _radar; echo "\${COMPREPLY[*]}"`,
          "bash",
          path,
          ...words,
        ],
        stdout: "piped",
      }).output();
      return new TextDecoder().decode(output.stdout).trim();
    };
    assert.equal(await complete("radar", "hist"), "history");
    assert.equal(await complete("radar", "--config", "x.yaml", "plugin", "appr"), "approve");
    assert.equal(await complete("radar", "history", "--j"), "--json");
    for (const shell of ["zsh", "fish"]) {
      const run = await cli(env, home, "completions", shell);
      assert.equal(run.code, 0);
      assert.match(run.out, /radar/);
    }
    assert.equal((await cli(env, home, "completions", "tcsh")).code, ExitCode.usage);
  });
});

// `true` exits without reading, so every write meets a closed pipe.
Deno.test("output into a closed pipe ends quietly with exit 0", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-pipe-" });
  try {
    const radar = [Deno.execPath(), "run", ...radarFlags, join(Deno.cwd(), "main.ts")].join(" ");
    const output = await new Deno.Command("bash", {
      args: ["-c", `set -o pipefail; ${radar} completions bash | true`],
      env: radarEnvironment(home),
      clearEnv: true,
      cwd: home,
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(output.stderr), "");
    assert.equal(output.code, 0);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("radar eval --only runs the chosen built-in task against --server and --model", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("Paris"));
  try {
    await withCliHome(async (env, home) => {
      const run = await cli(
        env,
        home,
        "eval",
        "--only",
        "no-tool-needed",
        "--server",
        server.url,
        "--model",
        "qwen3:8b",
      );
      assert.equal(run.code, 0, run.out + run.err);
      assert.match(run.out, /^radar eval: 1 tasks/);
      assert.match(run.out, /no-tool-needed/);
      assert.match(run.out, /model qwen3:8b at http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(server.chatRequests.length, 1);
    });
  } finally {
    await server.close();
  }
});
