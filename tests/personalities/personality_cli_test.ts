/**
 * `radar personality …` in-process (a person at a terminal), and `radar ask -P` / RADAR_PERSONALITY
 * / `personality use` as real subprocesses against the fake LLM server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { ExitCode } from "../../src/core/errors.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { runRadar, writeUserConfig } from "../helpers/radar_process.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";

/** Runs `radar args…` in-process; returns the exit code and what was printed. */
async function radar(env: Record<string, string>, home: string, ...args: string[]) {
  const io = memoryIo(env, { cwd: home });
  const code = await runCli(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** An editor that replaces the file with `text`. */
function fakeEditor(home: string, name: string, text: string): string {
  const path = join(home, name);
  Deno.writeTextFileSync(path, `#!/bin/sh\ncat > "$1" <<'EOF'\n${text}\nEOF\n`);
  Deno.chmodSync(path, 0o755);
  return path;
}

Deno.test("radar personality create, list, show, use, edit, remove", async () => {
  await withCliHome(async (env, home) => {
    const created = await radar(env, home, "personality", "create", "helper");
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /Created personality helper \(.*personalities\/helper\.md\)/);
    Deno.writeTextFileSync(join(home, "start.md"), "---\ndescription: From a file\n---\nResearch.");
    const fromFile = await radar(
      env,
      home,
      "personality",
      "create",
      "research",
      "--directory",
      "--from",
      "start.md",
    );
    assert.equal(fromFile.code, 0, fromFile.err);
    const list = await radar(env, home, "personality", "list");
    assert.match(list.out, /^\* default +bundled +Competent, understated and concise\n/m);
    assert.match(list.out, /^ {2}research +dir +From a file\n/m);
    const json = JSON.parse((await radar(env, home, "personality", "list", "--json")).out);
    assert.deepEqual(
      json.personalities.map((row: { name: string; kind: string }) => `${row.name}:${row.kind}`),
      ["helper:flat", "research:directory", "default:bundled"],
    );
    assert.equal(json.problem, null);
    const used = await radar(env, home, "personality", "use", "research");
    assert.equal(used.code, 0, used.err);
    const shown = JSON.parse(
      (await radar(env, home, "personality", "show", "research", "--json")).out,
    );
    assert.equal(shown.active, true);
    assert.equal(shown.text, "---\ndescription: From a file\n---\nResearch.");
    assert.ok(shown.promptTokens > 100 && shown.promptTokens < 500, String(shown.promptTokens));
    const status = await radar(env, home, "status");
    assert.match(status.out, /^personality: research$/m);

    const good = fakeEditor(home, "good-editor", "---\ndescription: Edited\n---\nEdited body.");
    const edited = await radar({ ...env, EDITOR: good }, home, "personality", "edit", "helper");
    assert.equal(edited.code, 0, edited.err);
    const editedShow = await radar(env, home, "personality", "show", "helper");
    assert.match(editedShow.out, /^helper — flat: .*\nEdited\n[\s\S]*Edited body\.\n/);
    const bad = fakeEditor(home, "bad-editor", "---\nmodle: fast\n---\nOops.");
    const rejected = await radar({ ...env, VISUAL: bad }, home, "personality", "edit", "helper");
    assert.equal(rejected.code, ExitCode.usage);
    assert.match(
      rejected.err,
      /^radar: personality "helper": front matter: unknown key "modle" \(known: name, description, model, temperature, tools\); not saved \(your edit is in .*helper\.md\)\n$/,
    );
    assert.match((await radar(env, home, "personality", "show", "helper")).out, /Edited body/);

    const removed = await radar(env, home, "personality", "remove", "research");
    assert.equal(removed.code, 0, removed.err);
    assert.match((await radar(env, home, "personality", "list")).out, /^\* default/m);
  });
});

Deno.test("radar personality: one line and exit 3 for a missing one, exit 2 for bad names and read-only ones", async () => {
  await withCliHome(async (env, home) => {
    const cases: Array<[string[], number, RegExp]> = [
      [["show", "ghost"], ExitCode.notFound, /^radar: No personality named "ghost"\n$/],
      [["use", "ghost"], ExitCode.notFound, /no such personality/],
      [["remove", "ghost"], ExitCode.notFound, /no such personality/],
      [["edit", "ghost"], ExitCode.notFound, /no such personality/],
      [["create", "Bad Name"], ExitCode.usage, /a name is 1-64 lowercase letters/],
      [["create", "../escape"], ExitCode.usage, /a name is 1-64 lowercase letters/],
      [["remove", "default"], ExitCode.usage, /comes from bundled and is read-only/],
      [["edit", "default"], ExitCode.usage, /comes from bundled and is read-only/],
      [
        ["create", "x", "--from", "missing.md"],
        ExitCode.usage,
        /^radar: Cannot read .*missing\.md/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const run = await radar(env, home, "personality", ...args);
      assert.equal(run.code, code, `${args.join(" ")}: ${run.err}`);
      assert.match(run.err, message, args.join(" "));
      assert.equal(run.err.split("\n").length, 2, "one line");
    }
  });
});

Deno.test("radar ask: -P beats RADAR_PERSONALITY beats `personality use` beats radar.personality", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-personality-cli-" });
  const server = FakeLlmServer.start().reply(...Array.from({ length: 4 }, () => ollamaText("ok")));
  try {
    writeUserConfig(home, "radar:\n  personality: from-config\nllm:\n  retries: 0\n");
    const folder = join(home, "data", "personalities");
    Deno.mkdirSync(folder, { recursive: true });
    for (const name of ["from-config", "from-use", "from-env", "from-flag"]) {
      Deno.writeTextFileSync(join(folder, `${name}.md`), `Personality ${name}.`);
    }
    Deno.writeTextFileSync(join(folder, ".active"), "from-use\n");
    const env = { RADAR_LLM_BASE_URL: server.url };
    const runs = [
      await runRadar(home, ["ask", "-P", "from-flag", "hi"], {
        env: { ...env, RADAR_PERSONALITY: "from-env" },
      }),
      await runRadar(home, ["ask", "hi"], { env: { ...env, RADAR_PERSONALITY: "from-env" } }),
      await runRadar(home, ["ask", "hi"], { env }),
    ];
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    Deno.removeSync(join(folder, ".active"));
    const configured = await runRadar(home, ["ask", "--personality", "from-config", "hi"], { env });
    assert.equal(configured.code, 0, configured.stderr);
    const prompts = server.chatRequests.map((request) =>
      (request.body as { messages: Array<{ content: string }> }).messages[0].content
    );
    assert.deepEqual(prompts.map((prompt) => /Personality ([a-z-]+)\./.exec(prompt)?.[1]), [
      "from-flag",
      "from-env",
      "from-use",
      "from-config",
    ]);
    const unknown = await runRadar(home, ["ask", "-P", "nobody", "hi"], { env });
    assert.equal(unknown.code, ExitCode.usage);
    assert.equal(
      unknown.stderr,
      'radar: No personality named "nobody" (radar personality list shows them)\n',
    );
    const refused = await runRadar(home, ["personality", "use", "from-env"]);
    assert.equal(refused.code, ExitCode.usage);
    assert.match(
      refused.stderr,
      /Refusing `radar personality use`: stdin and stderr are not a terminal/,
    );
    assert.equal(server.chatRequests.length, 4, "no model call for the unknown personality");
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("a plain unknown radar.personality: `radar ask` exits 2 in one line, status and list say why", async () => {
  await withCliHome(async (env, home) => {
    const config = writeUserConfig(home, "radar:\n  personality: pirate\n");
    const withConfig = { ...env, RADAR_CONFIG: config };
    const ask = await radar(withConfig, home, "ask", "hello");
    assert.equal(ask.code, ExitCode.usage);
    assert.equal(
      ask.err,
      'radar: radar.personality: no personality named "pirate" (radar personality list shows them)\n',
    );
    const status = await radar(withConfig, home, "status");
    assert.match(
      status.out,
      /^personality: pirate — radar\.personality: no personality named "pirate"/m,
    );
    const list = await radar(withConfig, home, "personality", "list");
    assert.equal(list.code, 0);
    assert.match(list.out, /Problem: radar\.personality: no personality named "pirate"/);
    // The old inline text still works as a personality.
    writeUserConfig(home, 'radar:\n  personality: "Talk like a pirate."\n');
    const inline = await radar(withConfig, home, "personality", "list");
    assert.match(inline.out, /^\* inline +bundled +The inline text of radar\.personality/m);
  });
});
