/**
 * Issue 23, class 1: `radar eval` runs each task with HOME set to a scratch folder, but what is
 * protected comes from the real user and Radar's real folders: the model under test cannot read
 * the user's real ~/.netrc or radar.yaml. And `radar eval --server URL` never sends
 * `llm.api_key` to that other server. The protection test runs as the suite's user and, when
 * that is root, again as a normal user (the test user), whom the sandbox's file hiding works
 * differently for (an unprivileged user namespace).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../src/eval/eval_runner.ts";
import { evalTasks } from "../../src/eval/eval_tasks.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { forEachUser } from "../helpers/system_parts.ts";

const task = evalTasks.find((candidate) => candidate.id === "no-tool-needed")!;

forEachUser(import.meta.url, [], {
  name: "the model under radar eval cannot read the real user's secrets or config",
  fn: readsNoRealSecrets,
}).forEach((test) => Deno.test(test));

async function readsNoRealSecrets() {
  const realHome = Deno.makeTempDirSync({ prefix: "radar-eval-real-home-" });
  Deno.writeTextFileSync(join(realHome, ".netrc"), "machine x login me password NETRC_SECRET\n");
  const configPath = join(realHome, ".config", "radar", "radar.yaml");
  Deno.mkdirSync(join(realHome, ".config", "radar"), { recursive: true });
  Deno.writeTextFileSync(configPath, "notifications:\n  ntfy:\n    token: tk_CONFIG_SECRET\n");
  Deno.mkdirSync(join(realHome, "data"));
  Deno.writeTextFileSync(join(realHome, "data", "notes.txt"), "DATA_SECRET\n");
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("read_file", { path: join(realHome, ".netrc") }),
    ollamaToolCall("read_file", { path: configPath }),
    ollamaToolCall("read_file", { path: join(realHome, "data", "notes.txt") }),
    ollamaToolCall("exec", { command: `cat ${realHome}/.netrc ${configPath}` }),
    ollamaText("Paris"),
  );
  try {
    await runEval({
      env: {
        HOME: realHome,
        RADAR_DATA_DIR: join(realHome, "data"),
        RADAR_LLM_BASE_URL: server.url,
        PATH: Deno.env.get("PATH"),
      },
      configPath,
      tasks: [task],
    });
    const sent = JSON.stringify(server.chatRequests.map((request) => request.body));
    for (const secret of ["NETRC_SECRET", "tk_CONFIG_SECRET", "DATA_SECRET"]) {
      assert.ok(!sent.includes(secret), `${secret} reached the model`);
    }
    assert.equal(server.chatRequests.length, 5, "every attempt was made");
  } finally {
    await server.close();
    Deno.removeSync(realHome, { recursive: true });
  }
}

Deno.test("radar eval --server never sends llm.api_key to that server", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-eval-key-" });
  const configPath = join(home, "radar.yaml");
  const mine = FakeLlmServer.start();
  const other = FakeLlmServer.start().reply(ollamaText("Paris"));
  Deno.writeTextFileSync(
    configPath,
    `llm:\n  base_url: "${mine.url}"\n  api_key: sk-CONFIG-KEY\n`,
  );
  try {
    await runEval({
      env: { HOME: home, RADAR_LLM_API_KEY: "sk-ENV-KEY" },
      configPath,
      server: other.url,
      tasks: [task],
    });
    assert.equal(other.chatRequests.length, 1);
    for (const request of other.chatRequests) {
      const authorization = request.headers.get("authorization") ?? "";
      assert.ok(!/sk-(CONFIG|ENV)-KEY/.test(authorization), authorization);
      assert.ok(!JSON.stringify(request.body).includes("-KEY"));
    }
    assert.equal(mine.chatRequests.length, 0);
  } finally {
    await mine.close();
    await other.close();
    Deno.removeSync(home, { recursive: true });
  }
});
