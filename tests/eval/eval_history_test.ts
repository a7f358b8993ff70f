import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { ExitCode } from "../../src/core/errors.ts";
import { SqliteEvalStore } from "../../src/adapters/sqlite/eval_store.ts";
import { evalRunOf } from "../../src/eval/eval_history.ts";
import type { TaskOutcome } from "../../src/core/eval_records.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { createWebFixture } from "../web/web_fixture.ts";

async function cli(env: Record<string, string>, home: string, ...args: string[]) {
  const io = memoryIo(env, { cwd: home });
  const code = await runCli(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const outcome = (id: string, pass: boolean, extra: Partial<TaskOutcome> = {}): TaskOutcome => ({
  id,
  pass,
  toolCalls: pass ? ["write_file"] : [],
  toolsRight: pass,
  toolResponses: 1,
  leakedResponses: pass ? 0 : 1,
  promptTokens: 900,
  completionTokens: 20,
  latencyMs: 1500,
  reason: pass ? undefined : "expected tools not called",
  ...extra,
});

Deno.test("radar eval stores each run; --history lists them, --json with their tasks", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("Paris"), ollamaText("Paris"));
  try {
    await withCliHome(async (env, home) => {
      const args = ["eval", "--only", "no-tool-needed", "--server", server.url];
      const first = await cli(env, home, ...args, "--model", "qwen3:8b");
      assert.equal(first.code, 0, first.out + first.err);
      assert.match(first.out, /stored as eval run #1 /);
      const second = await cli(env, home, ...args, "--model", "llama3.2:3b");
      assert.match(second.out, /stored as eval run #2 /);

      const history = await cli(env, home, "eval", "--history");
      assert.equal(history.code, 0, history.err);
      const lines = history.out.trim().split("\n");
      assert.equal(lines.length, 2);
      assert.match(
        lines[0],
        /^#2 .* llama3\.2:3b at http:\/\/127\.0\.0\.1:\d+ {2}passed 1\/1 \(100 %\)/,
      );
      assert.match(lines[1], /^#1 .* qwen3:8b /);

      const json = await cli(env, home, "eval", "--history", "--json");
      const runs = JSON.parse(json.out);
      assert.equal(runs.length, 2);
      assert.equal(runs[1].model, "qwen3:8b");
      assert.equal(runs[1].tasks, 1);
      assert.equal(runs[1].outcomes[0].id, "no-tool-needed");
      assert.equal(runs[1].outcomes[0].pass, true);

      const misuse = await cli(env, home, "eval", "--json");
      assert.equal(misuse.code, ExitCode.usage);
      assert.match(misuse.err, /--json goes with --history/);
    });
  } finally {
    await server.close();
  }
});

Deno.test("the Eval page lists stored runs and a run's tasks", async () => {
  const fixture = createWebFixture();
  try {
    const store = new SqliteEvalStore(fixture.db);
    const id = store.add(evalRunOf(
      {
        model: "qwen3:8b <b>",
        server: "http://gpu-box:11434",
        outcomes: [outcome("jot-todo", true), outcome("recall-dentist", false)],
      },
      new Date("2026-11-22T09:00:00Z"),
      4000,
    ));
    fixture.deps.evalRuns = store; // routes read their dependencies per request
    const list = await fixture.app.request("/eval");
    assert.equal(list.status, 200);
    const html = await list.text();
    assert.match(html, /<a href="\/eval" class="active">Eval<\/a>/);
    assert.match(html, new RegExp(`<a href="/eval/${id}">#${id}</a>`));
    assert.match(html, /qwen3:8b &lt;b&gt;/, "escaped");
    assert.match(html, /1\/2 \(50 %\)/);
    const detail = await (await fixture.app.request(`/eval/${id}`)).text();
    assert.match(detail, /<code>jot-todo<\/code>/);
    assert.match(detail, /recall-dentist[\s\S]*fail[\s\S]*expected tools not called/);
    assert.equal((await fixture.app.request("/eval/999")).status, 404);
    assert.equal((await fixture.app.request("/eval/abc")).status, 404);
  } finally {
    fixture.close();
  }
});
