import assert from "node:assert/strict";
import {
  FakeDaemonView,
  FakeLogsView,
  FakePluginsView,
  heartbeatRun,
  monitorRecord,
  pendingPlugin,
  taskRecord,
} from "../fakes/web_views.ts";
import { createWebFixture, postForm } from "./web_fixture.ts";

const htmx = { "HX-Request": "true" };

async function page(
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  path: string,
  init?: RequestInit,
) {
  const response = await app.request(path, init);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

Deno.test("GET /health answers JSON for service managers", async () => {
  const fixture = createWebFixture();
  try {
    const response = await fixture.app.request("/health");
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.ok, true);
    assert.equal(body.daemon, "absent");
  } finally {
    fixture.close();
  }
});

Deno.test("static files are served from the embedded folder, nothing else", async () => {
  const fixture = createWebFixture();
  try {
    const htmxFile = await fixture.app.request("/static/vendor/htmx.min.js");
    assert.equal(htmxFile.status, 200);
    assert.match(htmxFile.headers.get("content-type") ?? "", /javascript/);
    assert.match(await htmxFile.text(), /htmx/);
    for (
      const path of ["/static/../ports.ts", "/static/vendor/README.md", "/static/%2e%2e/app.tsx"]
    ) {
      const response = await fixture.app.request(path);
      assert.equal(response.status, 404, path);
      await response.body?.cancel();
    }
  } finally {
    fixture.close();
  }
});

Deno.test("pages without daemon, plugins or logs say so instead of failing", async () => {
  const fixture = createWebFixture();
  try {
    assert.match((await page(fixture.app, "/")).html, /Daemon not running/);
    assert.match((await page(fixture.app, "/tasks")).html, /Daemon not running/);
    assert.match((await page(fixture.app, "/plugins")).html, /Plugins not available/);
    assert.match((await page(fixture.app, "/plugins/review")).html, /Plugins not available/);
    assert.match((await page(fixture.app, "/logs")).html, /Logs not available/);
    const action = await page(fixture.app, "/tasks/1/run", postForm({}));
    assert.equal(action.status, 503);
  } finally {
    fixture.close();
  }
});

Deno.test("dashboard shows heartbeat state, events, notifications, counts and model status", async () => {
  const daemon = new FakeDaemonView();
  daemon.last = heartbeatRun({
    startedAt: "2026-11-22T09:45:00.000Z",
    answer: "Filed 2 new PDFs",
    promptTokens: 900,
    completionTokens: 40,
    durationMs: 2300,
    conversationId: 7,
  });
  daemon.next = "2026-11-22T10:00:00.000Z";
  daemon.events = [{
    id: 1,
    source: "watcher",
    kind: "new_file",
    summary: "new file invoice.pdf",
    urgent: false,
    createdAt: "2026-11-22T09:50:00Z",
  }];
  daemon.notifications = [{
    at: "2026-11-22T09:46:00Z",
    title: "Invoices",
    body: "2 filed",
    delivered: true,
    delivery: "delivered",
  }];
  daemon.tasksList = [taskRecord({ id: 1, name: "weekly", message: "Summarize" })];
  const fixture = createWebFixture({ extra: { daemon, plugins: new FakePluginsView() } });
  try {
    fixture.conversations.createConversation("chat", "Recent talk", fixture.clock.now());
    const { html } = await page(fixture.app, "/");
    for (
      const text of [
        "Filed 2 new PDFs",
        "900+40 tokens",
        "2026-11-22 10:00",
        "new file invoice.pdf",
        "Invoices",
        "Recent talk",
      ]
    ) {
      assert.ok(html.includes(text), text);
    }
    assert.match(html, /tasks<\/a><\/dt><dd>1<\/dd>/);
    assert.match(html, /hx-get="\/fragments\/model-status"/);
    const status = await page(fixture.app, "/fragments/model-status", { headers: htmx });
    assert.equal(status.status, 200);
    assert.match(status.html, /scripted-model/);
    assert.doesNotMatch(status.html, /<html/);
  } finally {
    fixture.close();
  }
});

Deno.test("history lists by kind, searches, paginates, opens, exports and deletes", async () => {
  const fixture = createWebFixture();
  try {
    const { conversations, clock } = fixture;
    for (let index = 1; index <= 30; index++) {
      const id = conversations.createConversation(
        index % 2 ? "chat" : "heartbeat",
        `talk ${index}`,
        clock.now(),
      );
      conversations.appendMessage(id, {
        role: "user",
        content: `message ${index}`,
        createdAt: clock.now(),
      });
      clock.advance(1000);
    }
    const first = await page(fixture.app, "/history");
    assert.match(first.html, /talk 30/);
    assert.doesNotMatch(first.html, /talk 5</);
    assert.match(first.html, /page 1 of 2 \(30 conversations\)/);
    assert.match(first.html, /href="\/history\?page=2"/);
    const second = await page(fixture.app, "/history?page=2");
    assert.match(second.html, /talk 5</);
    const heartbeats = await page(fixture.app, "/history/list?kind=heartbeat", { headers: htmx });
    assert.doesNotMatch(heartbeats.html, /<html/);
    assert.doesNotMatch(heartbeats.html, /talk 29</);
    assert.match(heartbeats.html, /talk 30</);
    const search = await page(fixture.app, "/history/list?q=message+17", { headers: htmx });
    assert.match(search.html, /talk 17</);
    assert.doesNotMatch(search.html, /talk 18</);

    const id = conversations.createConversation("chat", "with tools", clock.now());
    conversations.appendMessage(id, {
      role: "user",
      content: "remember tea",
      createdAt: clock.now(),
    });
    conversations.appendMessage(id, {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "remember", arguments: '{"content":"likes tea"}' }],
      createdAt: clock.now(),
    });
    conversations.appendMessage(id, {
      role: "tool",
      content: "Remembered #1",
      toolCallId: "c1",
      toolName: "remember",
      createdAt: clock.now(),
    });
    conversations.appendMessage(id, {
      role: "assistant",
      content: "Noted: **tea**.",
      createdAt: clock.now(),
      durationMs: 1200,
    });
    const opened = await page(fixture.app, `/history/${id}`);
    assert.match(opened.html, /class="tool-name">remember/);
    assert.match(opened.html, /Remembered #1/);
    assert.match(opened.html, /&quot;likes tea&quot;|"likes tea"/);
    assert.match(opened.html, /<strong>tea<\/strong>/);

    const markdown = await fixture.app.request(`/history/${id}/export.md`);
    assert.match(
      markdown.headers.get("content-disposition") ?? "",
      /attachment; filename="radar-conversation-\d+\.md"/,
    );
    assert.match(await markdown.text(), /Tool call `remember`/);
    const json = await (await fixture.app.request(`/history/${id}/export.json`)).json();
    assert.equal(json.conversation.id, id);
    assert.equal(json.messages.length, 4);

    assert.equal((await page(fixture.app, "/history/99999")).status, 404);
    const deleted = await fixture.app.request(`/history/${id}/delete`, postForm({}, htmx));
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers.get("hx-redirect"), "/history");
    assert.equal(conversations.conversation(id), undefined);
    const again = await fixture.app.request(`/history/${id}`, {
      method: "DELETE",
      headers: { Origin: "http://localhost" },
    });
    assert.equal(again.status, 404);
    await again.body?.cancel();
    const viaGet = await page(fixture.app, `/history/1/delete`);
    assert.equal(viaGet.status, 404, "no state change through GET");
    assert.ok(conversations.conversation(1));
  } finally {
    fixture.close();
  }
});

Deno.test("memory lists by category, searches, adds, edits and forgets", async () => {
  const fixture = createWebFixture();
  try {
    const { facts, clock } = fixture;
    const tea = facts.addFact(
      { category: "user_preference", content: "Prefers green tea" },
      clock.now(),
    );
    facts.addFact(
      { category: "personality_note", content: "Be brief in the mornings" },
      clock.now(),
    );
    const listed = await page(fixture.app, "/memory");
    assert.match(listed.html, /Prefers green tea/);
    assert.match(listed.html, /badge personality/);
    const search = await page(fixture.app, "/memory/results?q=tea", { headers: htmx });
    assert.match(search.html, /1 match for/);
    assert.doesNotMatch(search.html, /mornings/);
    const byCategory = await page(fixture.app, "/memory/results?category=personality_note", {
      headers: htmx,
    });
    assert.match(byCategory.html, /mornings/);
    assert.doesNotMatch(byCategory.html, /green tea/);

    const added = await fixture.app.request(
      "/memory",
      postForm({ category: "learned_fact", content: "Office is on floor 3" }),
    );
    assert.equal(added.status, 303);
    assert.equal(facts.countFacts(), 3);
    const invalid = await page(
      fixture.app,
      "/memory",
      postForm({ category: "nonsense", content: "x" }, htmx),
    );
    assert.equal(invalid.status, 422);
    assert.match(invalid.html, /Choose a category/);

    const editor = await page(fixture.app, `/memory/${tea}/edit`, { headers: htmx });
    assert.match(editor.html, /<textarea name="content"[^>]*>Prefers green tea<\/textarea>/);
    const saved = await page(
      fixture.app,
      `/memory/${tea}`,
      postForm({ content: "Prefers oolong" }, htmx),
    );
    assert.equal(saved.status, 200);
    assert.match(saved.html, /<tr id="fact-\d+"/);
    assert.equal(facts.getFact(tea)?.content, "Prefers oolong");
    const row = await page(fixture.app, `/memory/${tea}`, { headers: htmx });
    assert.match(row.html, /Prefers oolong/);
    const forgotten = await page(fixture.app, `/memory/${tea}/forget`, postForm({}, htmx));
    assert.equal(forgotten.status, 200);
    assert.equal(forgotten.html, "");
    assert.equal(facts.getFact(tea), undefined);
    assert.equal((await page(fixture.app, `/memory/${tea}/edit`, { headers: htmx })).status, 404);
  } finally {
    fixture.close();
  }
});

Deno.test("tasks and monitors: list, add, enable, disable, run now, remove; errors are readable", async () => {
  const daemon = new FakeDaemonView();
  daemon.tasksList = [taskRecord({
    id: 1,
    name: "weekly",
    message: "Summarize my week",
    nextRunAt: "2026-11-23T09:00:00Z",
    lastOutcome: "ok",
    lastRunAt: "2026-11-16T09:00:00Z",
  })];
  daemon.monitorsList = [monitorRecord({
    id: 1,
    name: "prices",
    url: "https://shop.example/item",
    enabled: false,
  })];
  const fixture = createWebFixture({ extra: { daemon } });
  try {
    const listed = await page(fixture.app, "/tasks");
    for (
      const text of [
        "Summarize my week",
        "0 9 * * 1",
        "2026-11-23 09:00",
        "2026-11-16 09:00",
        "https://shop.example/item",
        "/tasks/monitors/1/enable",
      ]
    ) {
      assert.ok(listed.html.includes(text), text);
    }
    for (
      const [path, call] of [
        ["/tasks/1/run", "runTaskNow 1"],
        ["/tasks/1/disable", "setTaskEnabled 1 false"],
        ["/tasks/1/enable", "setTaskEnabled 1 true"],
        ["/tasks/1/delete", "removeTask 1"],
        ["/tasks/monitors/1/check", "checkMonitorNow 1"],
        ["/tasks/monitors/1/enable", "setMonitorEnabled 1 true"],
        ["/tasks/monitors/1/disable", "setMonitorEnabled 1 false"],
        ["/tasks/monitors/1/delete", "removeMonitor 1"],
      ]
    ) {
      const response = await fixture.app.request(path, postForm({}));
      assert.equal(response.status, 303, path);
      assert.equal(daemon.calls.at(-1), call);
    }
    const added = await fixture.app.request(
      "/tasks",
      postForm({ schedule: "every 2h", prompt: "Check mail" }),
    );
    assert.equal(added.status, 303);
    assert.equal(daemon.tasksList.at(-1)?.name, "Check mail");
    const bad = await page(fixture.app, "/tasks", postForm({ schedule: "bad", prompt: "x" }));
    assert.equal(bad.status, 422);
    assert.match(bad.html, /Cannot add task: &quot;bad&quot; is not a schedule/);
    const badHtmx = await page(
      fixture.app,
      "/tasks",
      postForm({ schedule: "bad", prompt: "x" }, htmx),
    );
    assert.equal(badHtmx.headers.get("hx-retarget"), "#flash");
    const monitor = await fixture.app.request(
      "/tasks/monitors",
      postForm({ url: "https://example.com/", every: "30m" }),
    );
    assert.equal(monitor.status, 303);
    const notUrl = await page(
      fixture.app,
      "/tasks/monitors",
      postForm({ url: "javascript:alert(1)", every: "30m" }),
    );
    assert.equal(notUrl.status, 422);
  } finally {
    fixture.close();
  }
});

Deno.test("plugins: list with permissions, local-trust warning, review with code and diff, approve, reject", async () => {
  const plugins = new FakePluginsView(
    [{
      summary: {
        name: "weather",
        version: "1.0.0",
        description: "Forecasts",
        trustLevel: "sandbox",
        status: "enabled",
        tools: ["forecast"],
      },
      permissions: ["connect to api.weather.example"],
    }],
    [
      pendingPlugin(
        { name: "shell-helper", version: "0.1.0", description: "Runs things", trustLevel: "local" },
        {
          permissions: ["run any command"],
          files: { "main.ts": "export function run() { return 1; }" },
          review: {
            name: "shell-helper",
            source: "install",
            filesHash: "x",
            errors: [],
            tests: [{ name: "three", passed: true, detail: "3 passed" }],
            attempts: 0,
            updatedAt: "2026-11-22T09:00:00Z",
          },
        },
      ),
      pendingPlugin(
        { name: "notes", version: "2.0.0", description: "Notes", trustLevel: "sandbox" },
        {
          permissionDiff: {
            sinceApproval: true,
            added: [],
            removed: [{ kind: "read", target: "/home/u/Notes", description: "read ~/Notes" }],
            unchanged: [{
              kind: "write",
              target: "/home/u/Notes/radar",
              description: "write ~/Notes/radar",
            }],
          },
        },
      ),
    ],
  );
  const fixture = createWebFixture({ extra: { plugins } });
  try {
    const list = await page(fixture.app, "/plugins");
    assert.match(list.html, /connect to api\.weather\.example/);
    assert.match(list.html, /2 plugin\(s\) waiting for review/);
    const review = await page(fixture.app, "/plugins/review");
    assert.match(review.html, /Local trust:<\/strong> shell-helper/);
    // Issue 23: the warning states the real grant, not "every permission Radar itself has".
    assert.doesNotMatch(review.html, /every permission Radar/);
    assert.match(review.html, /gets exactly the permissions listed/);
    assert.match(review.html, /\+ run any command/);
    assert.match(review.html, /− read ~\/Notes/);
    assert.match(review.html, /export function run\(\)/);
    assert.match(review.html, /3 passed/);
    const approved = await fixture.app.request("/plugins/shell-helper/approve", postForm({}));
    assert.equal(approved.status, 303);
    assert.deepEqual(plugins.calls, ["approve shell-helper"]);
    const rejected = await fixture.app.request(
      "/plugins/notes/reject",
      postForm({ reason: "too broad" }),
    );
    assert.equal(rejected.status, 303);
    assert.equal(plugins.calls.at(-1), "reject notes too broad");
    const missing = await page(fixture.app, "/plugins/ghost/approve", postForm({}));
    assert.equal(missing.status, 422);
    assert.match(missing.html, /no pending review/);
    const badName = await fixture.app.request("/plugins/..%2Fx/approve", postForm({}));
    assert.equal(badName.status, 400);
    await badName.body?.cancel();
    await fixture.app.request("/plugins/weather/disable", postForm({}));
    assert.equal(plugins.calls.at(-1), "setEnabled weather false");
    assert.match(
      (await page(fixture.app, "/plugins")).html,
      /Local trust:/,
      "approved local plugin keeps its warning",
    );
  } finally {
    fixture.close();
  }
});

Deno.test("logs: agent log tail and audit trail, filterable", async () => {
  const logs = new FakeLogsView(
    ["10:00 info heartbeat skipped", "10:15 warn model slow", "10:30 info heartbeat ran"],
    [
      {
        id: 1,
        at: "2026-11-22T10:00:00Z",
        tool: "exec",
        arguments: '{"command":"rm -rf /"}',
        durationMs: 3,
        outcome: "refused",
        result: "Refused: dangerous",
      },
      {
        id: 2,
        at: "2026-11-22T10:01:00Z",
        tool: "recall",
        arguments: "{}",
        durationMs: 12,
        outcome: "ok",
        result: "nothing",
      },
    ],
  );
  const fixture = createWebFixture({ extra: { logs } });
  try {
    const all = await page(fixture.app, "/logs");
    assert.match(all.html, /model slow/);
    assert.match(all.html, /rm -rf/);
    const filtered = await page(fixture.app, "/logs/entries?filter=heartbeat&failed=1", {
      headers: htmx,
    });
    assert.doesNotMatch(filtered.html, /model slow/);
    assert.match(filtered.html, /heartbeat ran/);
    assert.match(filtered.html, /badge outcome-refused/);
    assert.doesNotMatch(filtered.html, /<code>recall<\/code>/);
  } finally {
    fixture.close();
  }
});
