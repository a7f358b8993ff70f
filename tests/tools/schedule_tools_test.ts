import assert from "node:assert/strict";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { ChatRequest } from "../../src/core/chat_model.ts";
import type { ConversationKind } from "../../src/core/tool.ts";
import { relevanceScore, wordStems } from "../../src/core/tool_relevance.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { call } from "./tool_harness.ts";

const context = (kind: ConversationKind) => ({
  kind,
  interactive: false,
  signal: new AbortController().signal,
});

Deno.test('"every Monday at 9am, summarize my week" becomes a cron task through schedule_task', async () => {
  const offered: string[][] = [];
  const model = (request: ChatRequest) => {
    offered.push((request.tools ?? []).map((tool) => tool.name));
    return toolCallResponse("schedule_task", {
      message: "Summarize my week",
      when: "every Monday at 9am",
    });
  };
  await withTestDaemon(
    { steps: [model, textResponse("Done: every Monday at 09:00.")] },
    async (daemon) => {
      const agent = await daemon.services.agent();
      const conversationId = daemon.runtime.conversations.createConversation(
        "ask",
        "schedule",
        daemon.clock.now(),
      );
      const result = await runAgent(agent, {
        conversationId,
        kind: "ask",
        userMessage: "every Monday at 9am, summarize my week",
        interactive: false,
      });
      assert.ok(offered[0].includes("schedule_task"), offered[0].join(","));
      assert.equal(result.toolExecutions[0].result.outcome, "ok");
      assert.match(
        result.toolExecutions[0].result.text,
        /^Scheduled #1 "Summarize my week": every Monday at 09:00 \(cron "0 9 \* \* 1"\); next Mon 30 Nov 09:00 \(UTC\)\.$/,
      );
      const [task] = daemon.services.tasks.list();
      assert.equal(task.scheduleKind, "cron");
      assert.equal(task.schedule, "0 9 * * 1");
      assert.equal(task.message, "Summarize my week");
      assert.equal(task.nextRunAt, "2026-11-30T09:00:00.000Z", "Monday 09:00 local (UTC here)");
    },
  );
});

Deno.test("schedule tools: one-shots, intervals, a rate floor, listing, cancelling, no changes from heartbeats", async () => {
  await withTestDaemon({}, async ({ runtime, services }) => {
    const { registry } = await runtime.agentStack();
    const tool = (name: string) => registry.get(name)!;
    const ask = context("ask");
    let result = await call(tool("schedule_task"), {
      message: "Water the plants",
      when: "every 2d",
    }, ask);
    assert.match(
      result.text,
      /^Scheduled #1 "Water the plants": every 2d; next Wed 25 Nov 10:00 \(UTC\)\.$/,
    );
    result = await call(
      tool("schedule_task"),
      { message: "Dentist", when: "at 2026-12-01 09:00" },
      ask,
    );
    assert.match(result.text, /: once Tue 1 Dec 2026 09:00 \(UTC\)\.$/);
    result = await call(tool("schedule_task"), { message: "Spam", when: "*/5 * * * *" }, ask);
    assert.equal(result.outcome, "error");
    assert.match(result.text, /every 5 min; the shortest allowed is 15 min/);
    result = await call(tool("schedule_task"), { message: "Spam", when: "every 1m" }, ask);
    assert.match(result.text, /the shortest allowed is 15 min/);
    result = await call(tool("schedule_task"), { message: "x", when: "someday" }, ask);
    assert.equal(result.outcome, "error");
    assert.match(
      result.text,
      /^Radar could not read "someday" as a time\. Ask the user when.*"tomorrow at 8"/,
    );
    const heartbeat = await call(
      tool("schedule_task"),
      { message: "x", when: "every 1h" },
      context("heartbeat"),
    );
    assert.equal(heartbeat.outcome, "refused");
    assert.equal(services.tasks.list().length, 2);

    result = await call(tool("list_tasks"), {}, ask);
    assert.equal(result.text.split("\n").length, 2);
    assert.match(result.text, /^#1 Water the plants — every 2d; next Wed 25 Nov 10:00: Water/);
    assert.match(result.text, /\n#2 Dentist — once Tue 1 Dec 2026 09:00; next Tue 1 Dec 09:00: /);
    assert.equal(
      (await call(tool("cancel_task"), { id: 1 }, context("heartbeat"))).outcome,
      "refused",
    );
    assert.equal((await call(tool("cancel_task"), { id: 1 }, ask)).text, "Cancelled task #1.");
    assert.match((await call(tool("cancel_task"), { id: 1 }, ask)).text, /No task #1/);
  });
});

Deno.test("monitor tools add, list and remove monitors; private addresses follow fetch_url's flag", async () => {
  await withTestDaemon({}, async ({ runtime, services }) => {
    const { registry } = await runtime.agentStack();
    const tool = (name: string) => registry.get(name)!;
    const ask = context("chat");
    let result = await call(tool("monitor_url"), { url: "http://192.168.1.1/status" }, ask);
    assert.equal(result.outcome, "error");
    assert.match(result.text, /private address \(tools\.fetch_url\.allow_private\)/);
    result = await call(
      tool("monitor_url"),
      { url: "https://shop.example/espresso", every: "6h", selector: ".price" },
      ask,
    );
    assert.match(
      result.text,
      /^Monitoring #1 shop\.example\/espresso — https:\/\/shop\.example\/espresso \(\.price\) every 6h; not checked yet/,
    );
    const refusedOnHeartbeat = await call(
      tool("monitor_url"),
      { url: "https://evil.example" },
      context("heartbeat"),
    );
    assert.equal(refusedOnHeartbeat.outcome, "refused");
    assert.match((await call(tool("list_monitors"), {}, ask)).text, /^#1 shop\.example\/espresso/);
    assert.equal(
      (await call(tool("remove_monitor"), { id: 1 }, ask)).text,
      "Stopped monitoring #1.",
    );
    assert.equal(services.monitors.list().length, 0);
    assert.equal((await call(tool("list_monitors"), {}, ask)).text, "No monitored pages.");
  });
});

Deno.test("relevance: a generic verb alone does not offer a tool unless it is one of its keywords", () => {
  const stems = (text: string) => new Set(wordStems(text));
  const tool = (name: string, description: string, keywords: string[]) => ({
    name,
    description,
    keywords,
    parameters: {},
    source: "builtin",
    parse: () => ({ ok: true as const, value: {} }),
    run: () => Promise.resolve(""),
  });
  const listTasks = tool("list_tasks", "List scheduled tasks", ["schedule", "task"]);
  const listDirectory = tool("list_directory", "List a folder", ["list", "folder"]);
  assert.equal(relevanceScore(stems("List the PDFs in my Downloads"), listTasks), 0);
  assert.ok(relevanceScore(stems("List the PDFs in my Downloads"), listDirectory) > 0);
  assert.ok(relevanceScore(stems("list my tasks"), listTasks) > 0);
});

Deno.test("schedule_task reads the user's words and echoes how it understood them", async () => {
  await withTestDaemon({}, async ({ runtime, services }) => {
    const { registry } = await runtime.agentStack();
    const schedule = (when: string) =>
      call(
        registry.get("schedule_task")!,
        { message: `task ${when}`, when },
        context("chat"),
      );
    // The daemon's clock: Monday 23 Nov 2026, 10:00 UTC.
    const cases: Array<[string, RegExp]> = [
      ["tomorrow at 8", /: once Tue 24 Nov 2026 08:00 \(UTC\)\.$/],
      ["in two hours", /: once Mon 23 Nov 2026 12:00 \(UTC\)\.$/],
      [
        "every 2 hours on weekdays",
        /: every 2 hours on weekdays \(cron "0 \*\/2 \* \* 1-5"\); next Mon 23 Nov 12:00 \(UTC\)\.$/,
      ],
      [
        "weekdays at 7:30",
        /: every weekday at 07:30 \(cron "30 7 \* \* 1-5"\); next Tue 24 Nov 07:30 \(UTC\)\.$/,
      ],
      [
        "on the 1st of every month",
        /: on day 1 of every month at 09:00 \(cron "0 9 1 \* \*"\); next Tue 1 Dec 09:00 \(UTC\)\.$/,
      ],
      ["0 9 * * 1", /: cron "0 9 \* \* 1"; next Mon 30 Nov 09:00 \(UTC\)\.$/],
    ];
    for (const [when, expected] of cases) {
      const result = await schedule(when);
      assert.equal(result.outcome, "ok", result.text);
      assert.match(result.text, expected, when);
    }
    const kinds = services.tasks.list().map((task) => [task.scheduleKind, task.schedule]);
    assert.deepEqual(kinds.slice(2, 5), [
      ["cron", "0 */2 * * 1-5"],
      ["cron", "30 7 * * 1-5"],
      ["cron", "0 9 1 * *"],
    ]);
  });
});

Deno.test("list_tasks tells the model each one-off and next time in radar.timezone", async () => {
  const yaml = 'radar:\n  timezone: "Europe/Berlin"\n';
  await withTestDaemon({ yaml, now: "2026-11-23T20:00:00Z" }, async ({ runtime }) => {
    const { registry } = await runtime.agentStack();
    const tool = (name: string) => registry.get(name)!;
    const ask = context("ask");
    const added = await call(
      tool("schedule_task"),
      { message: "Call Ann", when: "at 2026-11-24 00:30" },
      ask,
    );
    assert.equal(added.outcome, "ok", added.text);
    const listed = await call(tool("list_tasks"), {}, ask);
    // Stored as 2026-11-23T23:30Z: the list says the day and hour the user asked for.
    assert.equal(
      listed.text,
      "#1 Call Ann — once Tue 24 Nov 2026 00:30; next Tue 24 Nov 00:30: Call Ann",
    );
  });
});
