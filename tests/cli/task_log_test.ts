/**
 * `radar task log`: task runs with their tokens and the tokens of unattended runs per day against
 * `budget:` (heartbeats and tasks, today first), for all tasks or one; --json for scripts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteRunStore } from "../../src/adapters/sqlite/run_store.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";

const day = 24 * 60 * 60_000;

Deno.test("radar task log shows runs with tokens and per-day totals against the budget", async () => {
  await withCliHome(async (env, home) => {
    writeUserConfig(
      home,
      'radar:\n  timezone: "UTC"\nbudget:\n  daily_tokens: 50000\n  task_daily_tokens: 1000\n',
    );
    const cli = async (...args: string[]) => {
      const io = memoryIo(env, { cwd: home });
      const code = await runCli(args, io);
      return { code, out: io.out.join(""), err: io.err.join("") };
    };
    assert.equal(
      (await cli("task", "add", "--every", "1h", "--name", "plants", "Check the plants")).code,
      0,
    );
    assert.equal(
      (await cli("task", "add", "--every", "2h", "--name", "mail", "Check the mail")).code,
      0,
    );
    const db = openDatabase(join(home, "data", "radar.db"));
    const runs = new SqliteRunStore(db);
    const now = new Date();
    const record = (taskId: number | undefined, at: Date, prompt: number, completion: number) => {
      const claim = taskId === undefined
        ? runs.claimHeartbeat("schedule", at, 1, () => false)
        : runs.claimTask(taskId, "schedule", at, 1, () => false);
      assert.ok("runId" in claim);
      runs.finish(claim.runId, {
        outcome: "ran",
        reason: "answer",
        promptTokens: prompt,
        completionTokens: completion,
        durationMs: 1200,
      }, at);
    };
    record(1, now, 700, 400); // 1,100: past the task's 1,000
    record(2, now, 100, 20);
    record(undefined, now, 300, 30);
    record(1, new Date(now.getTime() - 2 * day), 2000, 500);
    db.close();

    const all = await cli("task", "log");
    assert.equal(all.code, 0, all.err);
    const lines = all.out.split("\n");
    assert.equal(
      lines[0],
      "Tokens of unattended runs per day (budget: 50,000 a day, 1,000 a task):",
    );
    assert.match(
      lines[1],
      /^ {2}\d{4}-\d\d-\d\d {2}heartbeats {7}330 {2}tasks {5}1,220 {2}summaries {9}0 {2}digests {9}0 {2}money {9}0 {2}vision {9}0 {2}total {5}1,550 {2}\(today\)$/,
    );
    assert.match(
      lines[3],
      /tasks {5}2,500 {2}summaries {9}0 {2}digests {9}0 {2}money {9}0 {2}vision {9}0 {2}total {5}2,500$/,
      "two days ago",
    );
    assert.match(
      all.out,
      /Today per task:\n {2}#1 plants: 1,100 tokens — PAUSED until tomorrow\n {2}#2 mail: 120 tokens\n/,
    );
    assert.match(
      all.out,
      /Recent task runs:\n[^]*\n {2}.* task #2: ran 100\+20 tokens 1\.2 s — mail\n/,
    );

    const one = await cli("task", "log", "2");
    assert.doesNotMatch(one.out, /#1 plants|— plants/);
    assert.match(one.out, /#2 mail: 120 tokens/);

    const json = JSON.parse((await cli("task", "log", "--json", "--days", "3")).out);
    assert.equal(json.budget.days.length, 3);
    assert.equal(json.budget.taskTokens, 1220);
    assert.equal(json.runs.length, 3);

    assert.equal((await cli("task", "log", "9")).code, 3);
    assert.equal((await cli("task", "log", "--limit", "0")).code, 2);
  });
});
