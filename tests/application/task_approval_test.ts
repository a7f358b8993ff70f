/**
 * A task the model created runs unattended with read-only tools (and notify) until the user
 * approves it; tasks the user creates are unaffected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import type { ChatRequest } from "../../src/core/chat_model.ts";
import { textResponse } from "../fakes/scripted_chat_model.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const message = "Write a file with the disk report, run a shell command to check the backups, " +
  "read my notes and notify me";

Deno.test("a model-made task gets read-only tools and notify until radar task approve", async () => {
  await withTestDaemon({ now: "2026-11-23T10:00:00Z" }, async (daemon) => {
    const { services, clock, model } = daemon;
    const registry = (await services.agent()).registry;
    const scheduleTool = registry.get("schedule_task")!;
    const result = await scheduleTool.run({ message, when: "every 1h" }, {
      kind: "ask",
      interactive: false,
      signal: new AbortController().signal,
    });
    assert.match(String(typeof result === "string" ? result : result.text), /^Scheduled #1 /);
    const [task] = services.tasks.list();
    assert.ok(services.tasks.needsApproval(task.id));
    // The user's own task is unaffected.
    const mine = await services.tasks.add({ message, every: "1h" });
    assert.ok(!("error" in mine) && !services.tasks.needsApproval(mine.id));

    const offered: string[][] = [];
    const record = (request: ChatRequest) => {
      offered.push(request.tools.map((tool) => tool.name));
      return textResponse("done");
    };
    model.push(record, record);
    clock.advance(60 * 60_000);
    await services.taskRunner.run(clock.now(), new AbortController().signal);
    const [modelTask, userTask] = offered;
    assert.ok(modelTask.includes("notify"), "notify stays: reminders are the point");
    for (const name of modelTask) {
      assert.ok(name === "notify" || registry.get(name)!.readOnly, `${name} offered unapproved`);
    }
    assert.ok(!modelTask.includes("write_file") && !modelTask.includes("exec"));
    assert.ok(userTask.includes("write_file"), `the user's task keeps every tool: ${userTask}`);

    services.tasks.approve(task.id);
    assert.ok(!services.tasks.needsApproval(task.id));
    model.push(record);
    clock.advance(60 * 60_000);
    await services.taskRunner.runTask(services.tasks.store.get(task.id)!, "manual");
    assert.ok(offered[2].includes("write_file"), `approved: every tool again: ${offered[2]}`);
  });
});

Deno.test("radar task list shows 'needs approval' and radar task approve clears it", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-approve-" });
  const env = {
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
  };
  const run = async (...args: string[]) => {
    const io = memoryIo(env, { cwd: home });
    const code = await runCli(args, io);
    return { code, out: io.out.join(""), err: io.err.join("") };
  };
  try {
    assert.equal((await run("task", "add", "--every", "2h", "Check", "the", "mail")).code, 0);
    const runtime = await openRadar({ env, cwd: home, logLevel: "error" });
    try {
      const tool = (await runtime.agent()).registry.get("schedule_task")!;
      await tool.run({ message: "Tidy the downloads", when: "every 1d" }, {
        kind: "chat",
        interactive: true,
        signal: new AbortController().signal,
      });
    } finally {
      runtime.close();
    }
    const listed = await run("task", "list");
    assert.match(listed.out, /#1 Check the mail — every 2h; next [^\n]*\n/);
    assert.doesNotMatch(listed.out, /#1 [^\n]*needs approval/);
    assert.match(
      listed.out,
      /#2 Tidy the downloads [^\n]*needs approval[^\n]*radar task approve 2/,
    );
    const piped = memoryIo(env, { cwd: home, stdin: "" });
    assert.equal(await runCli(["task", "approve", "2"], piped), 2, "no terminal, no approval");
    assert.match(piped.err.join(""), /not a terminal/);
    const approved = await run("task", "approve", "2");
    assert.equal(approved.code, 0, approved.err);
    assert.equal(approved.out, "Approved task #2: Tidy the downloads\n");
    assert.doesNotMatch((await run("task", "list")).out, /needs approval/);
    assert.equal((await run("task", "approve", "9")).code, 3, "not found");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
