/**
 * `radar ask` as a real subprocess: what it prints (stdout, --verbose stderr, --json), what it
 * stores, and how it fails (one line, exit 1).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { runRadar } from "../helpers/radar_process.ts";

function home(): string {
  const folder = Deno.makeTempDirSync({ prefix: "radar-ask-" });
  Deno.writeTextFileSync(join(folder, "radar.yaml"), "llm:\n  retries: 0\nradar:\n  nmae: Typo\n");
  return folder;
}

/** The config in the temp home, chosen explicitly (a radar.yaml in the cwd is not read). */
const configArgs = ["--config", "radar.yaml"];

function storedRows(folder: string) {
  const db = openDatabase(join(folder, "data", "radar.db"));
  try {
    return {
      messages: db.prepare("SELECT conversation_id, role, content FROM messages ORDER BY id")
        .all().map((row) => [row.conversation_id, row.role, row.content]),
      toolCalls: db.prepare("SELECT conversation_id, tool, arguments, outcome FROM tool_calls")
        .all().map((row) => [row.conversation_id, row.tool, row.arguments, row.outcome]),
    };
  } finally {
    db.close();
  }
}

Deno.test("radar ask --verbose --json prints the record on stdout, tool calls and one warning on stderr, and stores the turn", async () => {
  const folder = home();
  const server = FakeLlmServer.start();
  try {
    server.reply(ollamaToolCall("remember", { content: "Likes green tea" }), ollamaText("Noted."));
    const run = await runRadar(folder, [
      ...configArgs,
      "ask",
      "--verbose",
      "--json",
      "remember that I like green tea",
    ], { env: { RADAR_LLM_BASE_URL: server.url } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.match(/nmae/g)?.length, 1, "the config warning once");
    assert.match(run.stderr, /\[tools offered: [^\]]*remember/);
    assert.match(run.stderr, /\[tool remember \{"content":"Likes green tea"\} → ok in \d+ ms\]/);
    const record = JSON.parse(run.stdout);
    assert.equal(record.answer, "Noted.");
    assert.equal(record.stopReason, "answer");
    assert.equal(record.toolCalls[0].outcome, "ok");
    const rows = storedRows(folder);
    assert.deepEqual(rows.messages.map(([id, role]) => [id, role]), [
      [1, "user"],
      [1, "assistant"],
      [1, "tool"],
      [1, "assistant"],
    ]);
    assert.deepEqual(rows.toolCalls, [[1, "remember", '{"content":"Likes green tea"}', "ok"]]);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar ask prints the answer alone on stdout", async () => {
  const folder = home();
  const server = FakeLlmServer.start();
  try {
    server.reply(ollamaText("Green tea."));
    const run = await runRadar(folder, [...configArgs, "ask", "what", "do", "I", "like?"], {
      env: { RADAR_LLM_BASE_URL: server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Green tea.\n");
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar ask with the model server down fails with one line, exit 1", async () => {
  const folder = home();
  const dead = FakeLlmServer.start();
  const env = { RADAR_LLM_BASE_URL: dead.url };
  await dead.close();
  try {
    const run = await runRadar(folder, [...configArgs, "ask", "hi"], { env });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 2, run.stderr);
    assert.match(lines[0], /WARN .*nmae/);
    assert.match(lines[1], /^radar: Cannot reach the model server at .*: connection refused/);
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});
