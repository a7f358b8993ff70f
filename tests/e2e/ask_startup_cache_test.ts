/**
 * `radar ask` as a real subprocess twice in a row: the first run starts fully and writes the
 * startup cache, the second starts from it. Both must print, store and fail alike.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { type RadarRun, runRadar } from "../helpers/radar_process.ts";

function home(): string {
  const folder = Deno.makeTempDirSync({ prefix: "radar-ask-cache-" });
  Deno.writeTextFileSync(join(folder, "radar.yaml"), "llm:\n  retries: 0\nradar:\n  nmae: Typo\n");
  return folder;
}

/** The cache file's inode, or undefined: a full start replaces the file (a new inode). */
function cacheInode(folder: string): number | undefined {
  try {
    return Deno.statSync(join(folder, ".cache", "radar", "startup.json")).ino ?? undefined;
  } catch {
    return undefined;
  }
}

/** Output with what differs between any two runs (times, durations, ids) blanked out. */
function normalized(run: RadarRun): RadarRun {
  const blank = (text: string) =>
    text.replace(/^\S+Z /gm, "<time> ").replace(/\d+ ms\]/g, "<n> ms]")
      .replace(/"(conversationId|durationMs|modelDurationMs)": \d+/g, '"$1": <n>')
      .replace(/#\d+/g, "#<n>");
  return { code: run.code, stdout: blank(run.stdout), stderr: blank(run.stderr) };
}

function storedRows(folder: string) {
  const db = openDatabase(join(folder, "data", "radar.db"));
  try {
    return {
      messages: db.prepare(
        "SELECT conversation_id, role, content FROM messages ORDER BY id",
      ).all().map((row) => [row.conversation_id, row.role, row.content]),
      toolCalls: db.prepare("SELECT conversation_id, tool, arguments, outcome FROM tool_calls")
        .all().map((row) => [row.conversation_id, row.tool, row.arguments, row.outcome]),
    };
  } finally {
    db.close();
  }
}

Deno.test("radar ask from the startup cache prints, warns and stores exactly what a full start does", async () => {
  const folder = home();
  const server = FakeLlmServer.start();
  const env = { RADAR_LLM_BASE_URL: server.url };
  const args = ["ask", "--verbose", "--json", "remember that I like green tea"];
  try {
    const runs: RadarRun[] = [];
    let answer = "";
    for (const start of ["full", "cached"]) {
      const before = cacheInode(folder);
      assert.equal(before === undefined, start === "full");
      server.reply(
        ollamaToolCall("remember", { content: "Likes green tea" }),
        ollamaText("Noted."),
      );
      const run = await runRadar(folder, args, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr.match(/nmae/g)?.length, 1, `${start}: the warning once`);
      if (start === "cached") assert.equal(cacheInode(folder), before, "a hit, not rewritten");
      runs.push(normalized(run));
      answer = run.stdout;
    }
    assert.deepEqual(runs[1], runs[0]);
    const record = JSON.parse(answer);
    assert.equal(record.toolCalls[0].outcome, "ok");
    const [first, second] = server.chatRequests.filter((_, index) => index % 2 === 0)
      .map((request) => JSON.stringify(request.body).replace(/\d\d:\d\d UTC[^"\\]*/, ""));
    assert.equal(second, first, "the same first request");
    const rows = storedRows(folder);
    const byConversation = (id: number) =>
      rows.messages.filter(([conversation]) => conversation === id).map(([, ...rest]) => rest);
    assert.equal(byConversation(1).length, 4);
    assert.deepEqual(
      byConversation(2).map(([role, content]) => [role, String(content).replace(/#\d+/, "")]),
      byConversation(1).map(([role, content]) => [role, String(content).replace(/#\d+/, "")]),
    );
    assert.deepEqual(rows.toolCalls.map(([id, ...rest]) => [id, ...rest]), [
      [1, "remember", '{"content":"Likes green tea"}', "ok"],
      [2, "remember", '{"content":"Likes green tea"}', "ok"],
    ]);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar ask from the startup cache fails like a full start: one line, exit 1", async () => {
  const folder = home();
  const dead = FakeLlmServer.start();
  const env = { RADAR_LLM_BASE_URL: dead.url };
  await dead.close();
  try {
    const runs: RadarRun[] = [];
    for (const start of ["full", "cached"]) {
      const before = cacheInode(folder);
      assert.equal(before === undefined, start === "full");
      runs.push(normalized(await runRadar(folder, ["ask", "hi"], { env })));
      if (start === "cached") assert.equal(cacheInode(folder), before, "a hit, not rewritten");
    }
    assert.deepEqual(runs[1], runs[0]);
    assert.equal(runs[0].code, 1);
    assert.equal(runs[0].stdout, "");
    const lines = runs[0].stderr.trim().split("\n");
    assert.equal(lines.length, 2, runs[0].stderr);
    assert.match(lines[0], /WARN .*nmae/);
    assert.match(lines[1], /^radar: Cannot reach the model server at .*: connection refused/);
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});
