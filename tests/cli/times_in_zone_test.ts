/**
 * The CLI shows stored times in `radar.timezone`: with Europe/Berlin, something stored at 23:30 UTC
 * on the 23rd reads 00:30 on the 24th in `radar history` (list and show), the task lines of
 * `radar task list` and `radar task log`, and `radar eval --history`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { SqliteTaskStore } from "../../src/adapters/sqlite/task_store.ts";
import { SqliteRunStore } from "../../src/adapters/sqlite/run_store.ts";
import { SqliteEvalStore } from "../../src/adapters/sqlite/eval_store.ts";

const storedAt = new Date("2026-11-23T23:30:00.000Z");

Deno.test("radar history, task list, task log and eval --history show times in radar.timezone", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, 'radar:\n  timezone: "Europe/Berlin"\n');
    const cli = async (...args: string[]) => {
      const io = memoryIo(env, { cwd: home });
      const code = await runCli(args, io);
      assert.equal(code, 0, io.err.join(""));
      return io.out.join("");
    };
    const summer = `${new Date().getUTCFullYear() + 1}-07-01 09:00`; // UTC+02:00 in Berlin
    await cli("task", "add", "--at", summer, "--name", "plants", "Check the plants");

    const db = openDatabase(join(home, "data", "radar.db"));
    const conversations = new SqliteConversationStore(db);
    const id = conversations.createConversation("task", "Late kettle", storedAt);
    conversations.appendMessage(id, { role: "user", content: "Kettle?", createdAt: storedAt });
    const later = new Date(storedAt.getTime() + 60_000);
    conversations.appendMessage(id, { role: "assistant", content: "Descaled.", createdAt: later });
    new SqliteTaskStore(db).recordRun(1, { at: storedAt, outcome: "ok", conversationId: id });
    const runs = new SqliteRunStore(db);
    const claim = runs.claimTask(1, "manual", storedAt, 1, () => false);
    assert.ok("runId" in claim);
    runs.finish(claim.runId, { outcome: "ran", reason: "answer", durationMs: 900 }, storedAt);
    new SqliteEvalStore(db).add({
      startedAt: storedAt.toISOString(),
      model: "small",
      server: "http://127.0.0.1:9",
      tasks: 1,
      passed: 1,
      toolsRight: 1,
      toolResponses: 1,
      leakedResponses: 0,
      promptTokens: 10,
      completionTokens: 2,
      medianLatencyMs: 100,
      durationMs: 100,
      outcomes: [],
    });
    db.close();

    const history = await cli("history");
    assert.match(history, new RegExp(`${id}  2026-11-24 00:31  task`), "updated by the answer");
    const shown = await cli("history", "show", String(id));
    assert.match(shown, /^#\d+ task 2026-11-24 00:30 UTC\+01:00 Late kettle\n/);
    assert.match(shown, /\[00:30:00\] user: Kettle\?/);
    assert.match(shown, /\[00:31:00\] assistant: Descaled\./);

    const tasks = await cli("task", "list");
    // The one-off time as typed: 09:00 on Berlin's summer clock (07:00 UTC).
    assert.match(tasks, new RegExp(`once \\w{3} 1 Jul ${summer.slice(0, 4)} 09:00`));
    assert.match(tasks, /last 2026-11-24 00:30 UTC\+01:00 ok/);
    const log = await cli("task", "log");
    assert.match(log, /2026-11-24 00:30 UTC\+01:00 {2}task #1: ran/);
    const evals = await cli("eval", "--history");
    assert.match(evals, /^#1 {2}2026-11-24 00:30 UTC\+01:00 {2}small at/);

    for (const out of [history, shown, tasks, log, evals]) {
      assert.ok(!/2026-11-23[ T]23:30|\[23:30/.test(out), `a UTC time in:\n${out}`);
    }
  });
});

Deno.test("radar history show names the day again when a conversation passes midnight", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(home, 'radar:\n  timezone: "Europe/Berlin"\n');
    const start = new Date("2026-11-23T22:50:00.000Z"); // 23:50 in Berlin
    Deno.mkdirSync(join(home, "data"));
    const db = openDatabase(join(home, "data", "radar.db"));
    const conversations = new SqliteConversationStore(db);
    const id = conversations.createConversation("chat", "Late", start);
    conversations.appendMessage(id, { role: "user", content: "Still up?", createdAt: start });
    const after = new Date(start.getTime() + 20 * 60_000); // 00:10 on the 24th
    conversations.appendMessage(id, { role: "assistant", content: "Yes.", createdAt: after });
    db.close();
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["history", "show", String(id)], io), 0, io.err.join(""));
    const lines = io.out.join("").split("\n");
    assert.equal(lines[0], `#${id} chat 2026-11-23 23:50 UTC+01:00 Late`);
    assert.equal(lines[2], "[23:50:00] user: Still up?");
    assert.equal(lines[3], "[2026-11-24 00:10:00] assistant: Yes.");
  });
});
