/**
 * Every dashboard page shows times in `radar.timezone`: a Radar in Europe/Berlin at 23:30 UTC
 * (00:30 the next day in Berlin) stores a task run, its conversation, fact and tool call, a
 * heartbeat, a pending event, a monitor, an eval run and a digest; each page shows 00:30 on the
 * 24th, never 23:30 on the 23rd, and names the zone.
 */
import assert from "node:assert/strict";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { createApp } from "../../web/app.tsx";

const berlinYaml = `radar:\n  timezone: "Europe/Berlin"\n`;
/** 23:30 UTC on the 23rd is 00:30 on the 24th in Berlin (UTC+01:00 in November). */
const storedAt = "2026-11-23T23:30:00.000Z";
const inBerlin = "2026-11-24 00:30";
const inUtc = "2026-11-23 23:30";

Deno.test("every dashboard page shows stored times in radar.timezone and names the zone", async () => {
  await withTestDaemon({
    now: storedAt,
    yaml: berlinYaml,
    steps: [
      toolCallResponse("remember", { content: "The kettle was descaled" }),
      textResponse("Noted."),
    ],
  }, async (daemon) => {
    const radar = daemon.runtime;
    const task = await radar.tasks.add({ message: "Note the kettle", at: "2026-11-25 00:30" });
    assert.ok(!("error" in task), JSON.stringify(task));
    await radar.taskRunner.runTask(task, "manual");
    const run = radar.tasks.store.get(task.id)!;
    assert.equal(run.lastRunAt, storedAt);
    await radar.heartbeat.tick({ trigger: "schedule" });
    radar.queue.enqueue(
      { source: "watcher ~/Downloads", kind: "file_added", summary: "report.pdf" },
      daemon.clock.now(),
    );
    const monitor = await radar.monitors.add({ url: "https://example.com/news", every: "1d" });
    assert.ok(!("error" in monitor));
    const evalRun = (await radar.evalRuns()).add({
      startedAt: storedAt,
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
    new SqliteDigestStore(daemon.database()).save({
      period: "day",
      startsAt: "2026-11-23T23:00:00.000Z",
      endsAt: "2026-11-24T23:00:00.000Z",
      content: "- The kettle",
      createdAt: storedAt,
    });

    const deps = await webDependenciesFromRuntime(radar, {
      daemon: { startedAt: daemon.clock.now() },
      env: { HOME: daemon.dir },
      cwd: daemon.dir,
    });
    const app = createApp(deps);
    const page = async (path: string) => {
      const response = await app.request(path, {
        headers: { Authorization: `Bearer ${deps.authToken}` },
      });
      assert.equal(response.status, 200, path);
      return await response.text();
    };
    const conversation = run.lastConversationId!;
    const pages: Array<[string, RegExp[]]> = [
      ["/", [
        new RegExp(`since ${inBerlin}`),
        new RegExp(`last tick</dt>\\s*<dd>${inBerlin}`),
        new RegExp(`${inBerlin} watcher ~/Downloads`),
        new RegExp(`task · ${inBerlin}`),
      ]],
      ["/history", [new RegExp(`<td class="muted">${inBerlin}</td>`)]],
      [`/history/${conversation}`, [
        new RegExp(`started ${inBerlin}`),
        new RegExp(`Radar <span class="muted">${inBerlin}</span>`),
      ]],
      [`/chat?c=${conversation}`, [new RegExp(`You <span class="muted">${inBerlin}</span>`)]],
      ["/memory", [new RegExp(`<td class="muted">${inBerlin}</td>`)]],
      ["/tasks", [
        /<code>once Wed 25 Nov 2026 00:30<\/code>/,
        new RegExp(`<span class="muted">${inBerlin}</span>`),
        new RegExp(`<td>${inBerlin}</td>`),
      ]],
      ["/logs", [new RegExp(`<td class="muted">${inBerlin}</td>`)]],
      ["/eval", [new RegExp(`<td class="muted">${inBerlin}</td>`)]],
      [`/eval/${evalRun}`, [new RegExp(`#${evalRun}  ${inBerlin} UTC\\+01:00  small`)]],
      ["/summaries", [
        /2026-11-24 00:00 – 2026-11-25 00:00 UTC\+01:00/,
        new RegExp(`written ${inBerlin} UTC\\+01:00`),
      ]],
    ];
    for (const [path, expected] of pages) {
      const html = await page(path);
      for (const pattern of expected) assert.match(html, pattern, path);
      assert.ok(!html.includes(inUtc), `${path} shows a UTC time`);
      assert.match(html, /<footer class="muted">Times in Europe\/Berlin \(UTC\+01:00\)<\/footer>/);
    }
  });
});
