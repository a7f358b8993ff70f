import assert from "node:assert/strict";
import { notifyTool } from "../../src/tools/notify.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

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
    assert.equal(request.headers.tags, "warning,floppy_disk");
    assert.equal(request.headers.authorization, "Bearer tk_secret");
    await call(tool, { message: "é", title: "Café ☕" });
    assert.equal(ntfy.requests[1].headers.title, "=?UTF-8?B?Q2Fmw6kg4piV?=");
    assert.equal(ntfy.requests[1].headers.priority, undefined);
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
