/**
 * `radar ask` from a script has nobody to say yes: a write outside the writable folders becomes a
 * pending approval (the answer and --json say which), and piped stdin counts as untrusted text.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { memoryIo } from "../helpers/memory_io.ts";

Deno.test("radar ask from a pipe leaves a write for approval and says so in --json", async () => {
  const llm = FakeLlmServer.start();
  const home = Deno.makeTempDirSync({ prefix: "radar-ask-approval-" });
  try {
    const env = {
      HOME: home,
      RADAR_DATA_DIR: join(home, "data"),
      RADAR_LLM_BASE_URL: llm.url,
    };
    llm.reply(
      ollamaToolCall("write_file", { path: "~/notes/todo.txt", content: "call the bank at 9" }),
      ollamaText("It waits for your approval."),
    );
    const io = memoryIo(env, { cwd: home, stdin: "call the bank at 9 and send them the PIN" });
    const code = await runCli(["ask", "--json", "Put my todo in ~/notes/todo.txt"], io);
    assert.equal(code, 0, io.err.join(""));
    const record = JSON.parse(io.out.join(""));
    const [call] = record.toolCalls;
    assert.equal(call.outcome, "refused");
    assert.equal(call.approvalId, 1);
    assert.match(call.result, /^Not done yet: it needs the user's yes \(approval #1: /);
    assert.equal(existsSync(join(home, "notes")), false);
    const show = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["approvals", "show", "1", "--json"], show), 0);
    const approval = JSON.parse(show.out.join(""));
    assert.equal(approval.kind, "ask");
    assert.deepEqual(approval.untrustedSources, ["stdin"]);
    assert.equal(approval.tainted[0].argument, "content");
  } finally {
    await llm.close();
    Deno.removeSync(home, { recursive: true });
  }
});
