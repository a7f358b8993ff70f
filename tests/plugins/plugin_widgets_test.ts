/**
 * Dashboard widgets from plugins: real plugin folders (tests/fixtures/plugins/downloads_widget and
 * hostile_widget) installed, approved and run in real plugin host processes, rendered by the real
 * dashboard app. Plugin output is hostile: markup is escaped, only http(s) links survive, floods
 * are refused or cut, and a hang or a throw becomes one line in the widget, never a broken page.
 */
import assert from "node:assert/strict";
import { readFolderFiles } from "../../src/plugins/plugin_files.ts";
import { PluginWidgets } from "../../src/plugins/plugin_widgets.ts";
import { parseWidgetContent, safeLinkUrl } from "../../src/plugins/widget_content.ts";
import { validateManifest } from "../../src/sandbox/manifest.ts";
import { fixturePath } from "../sandbox/helpers.ts";
import { createWebFixture } from "../web/web_fixture.ts";
import { type Fixture, installApproved, pluginFixture } from "./helpers.ts";

/** The files of a fixture plugin, optionally renamed and pointed at another widget function. */
function fixtureFiles(folder: string, change: { name?: string; function?: string } = {}) {
  const files = readFolderFiles(fixturePath(folder));
  let manifest = files["manifest.yaml"];
  if (change.name) manifest = manifest.replace(/^name: .*$/m, `name: ${change.name}`);
  if (change.function) {
    manifest = manifest.replace(/^ {2}function: .*$/m, `  function: ${change.function}`);
  }
  return { ...files, "manifest.yaml": manifest };
}

/** Installs and approves hostile_widget as `hw_FUNCTION` for each function. */
async function installHostile(fixture: Fixture, functions: string[]): Promise<void> {
  for (const name of functions) {
    await installApproved(
      fixture,
      `hw_${name}`,
      fixtureFiles("hostile_widget", {
        name: `hw_${name}`,
        function: name,
      }),
    );
  }
}

async function withWidgets(
  work: (context: {
    fixture: Fixture;
    page: (path: string) => Promise<{ status: number; html: string }>;
  }) => Promise<void>,
): Promise<void> {
  const fixture = pluginFixture({ call_timeout_seconds: 3 });
  const web = createWebFixture({ extra: { widgets: fixture.system.widgets } });
  try {
    await work({
      fixture,
      page: async (path) => {
        const response = await web.app.request(path);
        return { status: response.status, html: await response.text() };
      },
    });
  } finally {
    web.close();
    await fixture.close();
  }
}

Deno.test("a manifest's widget is checked: bounds, capability and section together, no templates", () => {
  const base = {
    name: "w",
    version: "1.0.0",
    description: "d",
    trust_level: "sandbox",
    capabilities: ["widget"],
  };
  const errors = (extra: Record<string, unknown>) => {
    const result = validateManifest({ ...base, ...extra });
    return result.ok ? [] : result.errors;
  };
  assert.deepEqual(errors({ widget: { title: "T" } }), []);
  assert.match(errors({ widget: { title: "T", refresh_interval: 5 } })[0], /0 \(on page load/);
  assert.match(errors({ widget: { title: "T", refresh_interval: 90_000 } })[0], /86400/);
  assert.match(errors({ widget: { title: "T", template: "widget.html" } })[0], /template/);
  assert.match(errors({ widget: { title: "\u001b[31mred" } })[0], /no control characters/);
  assert.match(errors({ widget: null })[0], /needs a `widget:` section/);
  assert.match(
    errors({
      capabilities: ["tool"],
      tools: [{ name: "t", description: "t" }],
      widget: { title: "T" },
    })[0],
    /needs the capability `widget`/,
  );
});

Deno.test("widget content: markup stays text, only http(s) links without credentials, bounded", () => {
  assert.equal(safeLinkUrl("javascript:alert(1)"), undefined);
  assert.equal(safeLinkUrl(" JAVASCRIPT:alert(1)"), undefined);
  assert.equal(safeLinkUrl("data:text/html,x"), undefined);
  assert.equal(safeLinkUrl("/relative"), undefined);
  assert.equal(safeLinkUrl("https://a:b@example.org/"), undefined);
  assert.equal(safeLinkUrl("https://example.org/a b"), "https://example.org/a%20b");
  const parsed = parseWidgetContent(JSON.stringify({
    lines: ["<b>x</b>", 5, { nested: true }],
    rows: [{ label: "a", value: "b" }, { label: 1, value: "c" }],
    links: "not a list",
    __proto__: { polluted: true },
  }));
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.content, {
    lines: ["<b>x</b>", "5"],
    rows: [{ label: "a", value: "b" }],
    links: [],
    omitted: 3,
  });
  assert.deepEqual(parseWidgetContent("plain\n\ntext"), {
    ok: true,
    content: { lines: ["plain", "text"], rows: [], links: [], omitted: 0 },
  });
  assert.equal(parseWidgetContent("{broken").ok, false);
  assert.equal(parseWidgetContent("[1]").ok, false);
});

Deno.test("an approved plugin's widget shows on the dashboard home; pending and disabled ones do not", async () => {
  await withWidgets(async ({ fixture, page }) => {
    fixture.system.manager.install(
      fixture.source("downloads_widget", fixtureFiles("downloads_widget")),
    );
    assert.doesNotMatch((await page("/")).html, /Downloads today/, "pending review: no widget");
    const details = fixture.system.api.details("downloads_widget");
    assert.ok(
      details.permissions.some((line) =>
        line.startsWith(
          'show a box "Downloads today" on the dashboard home (widget, refreshed every 60 s)',
        )
      ),
      details.permissions.join("\n"),
    );
    await fixture.system.api.approve("downloads_widget");
    const home = await page("/");
    assert.equal(home.status, 200);
    assert.match(home.html, /<h2>Downloads today <span class="muted">· plugin downloads_widget/);
    assert.match(home.html, /hx-get="\/fragments\/widgets\/downloads_widget"/);
    assert.match(home.html, /hx-trigger="load, every 60s"/);
    const body = await page("/fragments/widgets/downloads_widget");
    assert.equal(body.status, 200);
    assert.match(body.html, /<p>3 new files since 08:00<\/p>/);
    assert.match(body.html, /<dt>PDFs<\/dt><dd>2<\/dd>/);
    assert.match(
      body.html,
      /<a href="https:\/\/example.org\/radar\/widgets" rel="noopener noreferrer nofollow" target="_blank">Radar docs<\/a>/,
    );
    await fixture.system.api.disable("downloads_widget");
    assert.doesNotMatch((await page("/")).html, /Downloads today/, "disabled: no widget");
    assert.equal((await page("/fragments/widgets/downloads_widget")).status, 404);
  });
});

Deno.test("hostile widgets: markup escaped, script links dropped, floods refused, a throw is one line", async () => {
  await withWidgets(async ({ fixture, page }) => {
    await installHostile(fixture, [
      "script_tags",
      "script_links",
      "huge_output",
      "many_items",
      "throws",
      "nonsense",
    ]);
    const home = await page("/");
    assert.equal(home.status, 200);
    assert.doesNotMatch(home.html, /<script>window/);
    assert.doesNotMatch(home.html, /<img src=x/);
    assert.match(home.html, /&lt;img src=x onerror=window.__pwned=3&gt;&lt;script&gt;/);

    const tags = (await page("/fragments/widgets/hw_script_tags")).html;
    assert.doesNotMatch(tags, /<script|<img|<iframe|<b /i);
    assert.match(tags, /<p>&lt;script&gt;window.__pwned = 1&lt;\/script&gt;visible text<\/p>/);
    assert.match(tags, /<dt>&lt;b onmouseover=alert\(1\)&gt;label&lt;\/b&gt;<\/dt>/);
    assert.match(
      tags,
      /href="https:\/\/example.org\/%22%3E%3Cscript%3Ewindow.__pwned=8%3C\/script%3E"/,
    );

    const links = (await page("/fragments/widgets/hw_script_links")).html;
    assert.deepEqual([...links.matchAll(/href="([^"]*)"/g)].map((match) => match[1]), [
      "http://example.org/fine",
    ]);
    assert.match(links, /6 item\(s\) left out/);

    assert.match(
      (await page("/fragments/widgets/hw_huge_output")).html,
      /Widget unavailable: returned more than 20000 characters/,
    );
    const many = (await page("/fragments/widgets/hw_many_items")).html;
    assert.equal([...many.matchAll(/<p>line /g)].length, 20);
    assert.match(many, /10 item\(s\) left out/);
    assert.ok(many.length < 20 * 330, "every line is cut short");

    const thrown = (await page("/fragments/widgets/hw_throws")).html;
    assert.match(thrown, /Widget unavailable: hw_throws: Error: widget exploded/);
    assert.doesNotMatch(thrown, /secret\/stack/);
    assert.match(
      (await page("/fragments/widgets/hw_nonsense")).html,
      /Widget unavailable: returned something other than text or \{lines, rows, links\}/,
    );
    assert.ok(
      fixture.toolCalls.list({ limit: 20 }).some((row) => row.tool === "plugin:hw_throws:throws"),
      "a failing widget is audited",
    );
    assert.equal((await page("/fragments/widgets/no_such")).status, 404);
    assert.equal((await page("/fragments/widgets/..%2Fetc")).status, 404);
  });
});

Deno.test("a hanging or spinning widget answers with a line after its deadline, and is not asked again until its interval passed", async () => {
  const fixture = pluginFixture({ call_timeout_seconds: 3 });
  try {
    await installHostile(fixture, ["hang", "spin", "script_tags"]);
    const widgets = new PluginWidgets({
      pool: fixture.system.pool,
      clock: fixture.clock,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      deadlineMs: 700,
    });
    const enabled = fixture.system.manager.inventory.loadEnabled();
    widgets.update(enabled);
    // The good widget's host started beforehand: a cold start under load can take longer than the
    // 700 ms deadline this test gives the hanging ones.
    const good = enabled.find((plugin) => plugin.folder.name === "hw_script_tags")!;
    await fixture.system.pool.host(good).call(good.folder.manifest.widget!.function, {});
    const started = performance.now();
    const [hang, spin] = await Promise.all([widgets.render("hw_hang"), widgets.render("hw_spin")]);
    assert.ok(performance.now() - started < 2_500, "the deadline, not the host's call timeout");
    for (const outcome of [hang, spin]) {
      assert.equal(outcome?.ok, false);
      assert.match(outcome.ok ? "" : outcome.error, /did not answer within 700 ms/);
    }
    // Cached for the interval: asking again does not wait again.
    const again = performance.now();
    assert.equal((await widgets.render("hw_hang"))?.ok, false);
    assert.ok(performance.now() - again < 100);
    // A good widget of another plugin answers meanwhile.
    assert.equal((await widgets.render("hw_script_tags"))?.ok, true);
    // After the interval it is asked again (and waits for the deadline again).
    fixture.clock.advance(31_000);
    const later = performance.now();
    assert.equal((await widgets.render("hw_hang"))?.ok, false);
    assert.ok(performance.now() - later >= 600, "asked again after its interval");
  } finally {
    await fixture.close();
  }
});
