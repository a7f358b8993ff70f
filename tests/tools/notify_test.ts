import assert from "node:assert/strict";
import { notifyTool } from "../../src/tools/notify.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { askContext, call, tempHome, toolDeps } from "./tool_harness.ts";

Deno.test("notify POSTs to url/topic with title, priority, tags and token headers", async () => {
  const home = tempHome();
  const ntfy = startFakeNtfy();
  try {
    const tool = notifyTool(toolDeps(home, (c) => {
      c.notifications.ntfy.url = `${ntfy.url}/`;
      c.notifications.ntfy.topic = "radar-alerts";
      c.notifications.ntfy.token = "tk_secret";
    }));
    const result = await call(tool, {
      message: "Disk almost full",
      title: "Radar: disk",
      priority: "high",
      tags: "warning, floppy_disk",
    });
    assert.equal(result.text, "Notification sent to ntfy topic radar-alerts.");
    assert.equal(ntfy.requests.length, 1);
    const [request] = ntfy.requests;
    assert.equal(request.method, "POST");
    assert.equal(request.path, "/radar-alerts");
    assert.equal(request.body, "Disk almost full");
    assert.equal(request.headers.title, "Radar: disk");
    assert.equal(request.headers.priority, "high");
    assert.equal(request.headers.tags, "warning,floppy_disk", "tags are used, also as text");
    assert.equal(request.headers.authorization, "Bearer tk_secret");
    await call(tool, { message: "é", title: "Café ☕", tags: ["tada"] });
    assert.equal(ntfy.requests[1].headers.title, "=?UTF-8?B?Q2Fmw6kg4piV?=");
    assert.equal(ntfy.requests[1].headers.priority, undefined);
    assert.equal(ntfy.requests[1].headers.tags, "tada");
  } finally {
    await ntfy.close();
    home.dispose();
  }
});

Deno.test("notify takes every priority ntfy takes (names, max, 1–5) and coerces the rest", async () => {
  const home = tempHome();
  const ntfy = startFakeNtfy();
  try {
    const tool = notifyTool(toolDeps(home, (c) => {
      c.notifications.ntfy.url = ntfy.url;
      c.notifications.ntfy.topic = "t";
    }));
    const given: unknown[] = ["min", "low", "default", "high", "max", "urgent", "Default"];
    given.push(1, 2, 3, 4, 5, "5", "normal", "critical");
    for (const priority of given) {
      const result = await call(tool, { message: "hello", priority });
      assert.equal(result.outcome, "ok", `${priority}: ${result.text}`);
    }
    assert.deepEqual(ntfy.requests.map((request) => request.headers.priority), [
      ...["min", "low", "default", "high", "urgent", "urgent", "default"],
      ...["min", "low", "default", "high", "urgent", "urgent", "default", "urgent"],
    ]);
    const odd = await call(tool, { message: "hello", priority: "whenever" });
    assert.equal(odd.outcome, "ok");
    assert.match(odd.text, /default priority: "whenever" is not an ntfy one/);
    assert.equal(ntfy.requests.at(-1)!.headers.priority, "default");
    // The offered schema: three priorities, and the tags it sends (ntfy's comma-separated text).
    assert.deepEqual(tool.parameters, {
      type: "object",
      properties: {
        message: { type: "string" },
        title: { type: "string" },
        priority: { type: "string", enum: ["low", "high", "urgent"] },
        tags: { type: "string" },
      },
      required: ["message"],
    });
  } finally {
    await ntfy.close();
    home.dispose();
  }
});

Deno.test("notify errors name the config key, the HTTP status, or the network problem", async () => {
  const home = tempHome();
  const ntfy = startFakeNtfy();
  try {
    let result = await call(notifyTool(toolDeps(home)), { message: "hi" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /set notifications\.ntfy\.topic/);
    const configured = notifyTool(toolDeps(home, (c) => {
      c.notifications.ntfy.url = ntfy.url;
      c.notifications.ntfy.topic = "t";
      c.notifications.ntfy.token = "tk_secret";
    }));
    ntfy.status = 403;
    result = await call(configured, { message: "hi" });
    assert.equal(result.text, "ntfy refused the notification: 403 Forbidden (forbidden)");
    await ntfy.close();
    result = await call(configured, { message: "hi" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /^Cannot reach ntfy at http:\/\/127\.0\.0\.1:\d+: /);
    assert.doesNotMatch(result.text, /tk_secret/);
  } finally {
    await ntfy.close().catch(() => {});
    home.dispose();
  }
});

Deno.test("notify holds back heartbeat notifications in quiet hours unless high or urgent", async () => {
  const home = tempHome();
  const ntfy = startFakeNtfy();
  try {
    const clock = new ManualClock(new Date("2026-11-22T23:30:00Z"));
    const deps = toolDeps(home, (c) => {
      c.radar.timezone = "UTC";
      c.notifications.ntfy.url = ntfy.url;
      c.notifications.ntfy.topic = "t";
    }, { clock });
    const tool = notifyTool(deps);
    const heartbeat = { ...askContext(), kind: "heartbeat" as const };
    const held = await call(tool, { message: "New PDF" }, heartbeat);
    assert.equal(held.outcome, "refused");
    assert.match(held.text, /^Not sent: quiet hours \(23:00–07:00\)/);
    assert.equal(
      (await call(tool, { message: "low", priority: "low" }, heartbeat)).outcome,
      "refused",
    );
    assert.equal(ntfy.requests.length, 0);
    assert.equal(
      (await call(tool, { message: "Server down", priority: "urgent" }, heartbeat)).outcome,
      "ok",
    );
    assert.equal(
      (await call(tool, { message: "Bank alert", priority: "high" }, heartbeat)).outcome,
      "ok",
    );
    assert.equal((await call(tool, { message: "You asked" })).outcome, "ok", "ask is not held");
    assert.equal(
      (await call(tool, { message: "Task" }, { ...heartbeat, kind: "task" })).outcome,
      "ok",
      "a scheduled task the user set up is not held",
    );
    clock.set(new Date("2026-11-23T07:00:00Z"));
    assert.equal((await call(tool, { message: "Morning" }, heartbeat)).outcome, "ok");
    assert.deepEqual(ntfy.requests.map((request) => request.body), [
      "Server down",
      "Bank alert",
      "You asked",
      "Task",
      "Morning",
    ]);
    clock.set(new Date("2026-11-23T02:00:00Z"));
    const noQuiet = notifyTool(toolDeps(home, (c) => {
      c.heartbeat.quiet_hours = null;
      c.notifications.ntfy.url = ntfy.url;
      c.notifications.ntfy.topic = "t";
    }, { clock }));
    assert.equal((await call(noQuiet, { message: "Night" }, heartbeat)).outcome, "ok");
  } finally {
    await ntfy.close();
    home.dispose();
  }
});
