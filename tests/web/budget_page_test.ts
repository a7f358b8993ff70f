/**
 * /tasks shows today's tokens per task and per day (heartbeats, tasks, summaries, digests) against
 * `budget:`, and says when paused.
 */
import assert from "node:assert/strict";
import { FakeDaemonView, taskRecord } from "../fakes/web_views.ts";
import { createWebFixture } from "./web_fixture.ts";
import { budgetReport } from "../../src/core/budget.ts";

Deno.test("the tasks page shows tokens today per task, per day, and a budget pause", async () => {
  const daemon = new FakeDaemonView();
  daemon.tasksList = [
    taskRecord({ id: 1, name: "plants", message: "Check the plants" }),
    taskRecord({ id: 2, name: "mail", message: "Check the mail" }),
  ];
  const now = new Date("2026-11-23T15:00:00Z");
  daemon.budgetReport = budgetReport(
    { dailyTokens: 5000, taskDailyTokens: 1000 },
    [
      { kind: "task", taskId: 1, startedAt: "2026-11-23T09:00:00Z", tokens: 1200 },
      { kind: "task", taskId: 2, startedAt: "2026-11-23T10:00:00Z", tokens: 300 },
      { kind: "heartbeat", startedAt: "2026-11-23T11:00:00Z", tokens: 3600 },
      { kind: "summary", startedAt: "2026-11-23T12:00:00Z", tokens: 40 },
      { kind: "digest", startedAt: "2026-11-23T07:00:00Z", tokens: 60 },
      { kind: "heartbeat", startedAt: "2026-11-21T11:00:00Z", tokens: 777 },
    ],
    now,
    "UTC",
  );
  const fixture = createWebFixture({ extra: { daemon } });
  try {
    const html = await (await fixture.app.request("/tasks")).text();
    assert.match(html, /<th>tokens today<\/th>/);
    assert.match(html, /<td>1,200<span class="badge outcome-error">paused<\/span><\/td>/);
    assert.match(html, /<td>300<span class="badge outcome-error">paused<\/span><\/td>/, "all wait");
    assert.match(html, /Unattended tokens/);
    assert.match(
      html,
      /Heartbeats, scheduled tasks, digests, summaries and money categories wait until 2026-11-24 00:00/,
    );
    assert.match(
      html,
      /Today: <strong>5,200<\/strong> of 5,000 tokens \(heartbeats 3,600, tasks 1,500, summaries 40, digests 60, money 0, vision 0\)/,
    );
    assert.match(
      html,
      /<td>2026-11-23<\/td><td>3,600<\/td><td>1,500<\/td><td>40<\/td><td>60<\/td><td>0<\/td><td>0<\/td><td>5,200<\/td>/,
    );
    assert.match(
      html,
      /<td>2026-11-21<\/td><td>777<\/td><td>0<\/td><td>0<\/td><td>0<\/td><td>0<\/td><td>0<\/td><td>777<\/td>/,
    );
  } finally {
    fixture.close();
  }
});
