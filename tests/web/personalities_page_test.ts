import assert from "node:assert/strict";
import { join } from "node:path";
import { shortPersonalitySource } from "../../web/views/personalities.tsx";
import { FakePersonalityCatalog } from "../fakes/fake_personality_catalog.ts";
import { createWebFixture, postForm, runtimeDashboard } from "./web_fixture.ts";

function fixtureWithCatalog() {
  const catalog = new FakePersonalityCatalog();
  const fixture = createWebFixture({ extra: { personalities: catalog } });
  return { fixture, catalog };
}

Deno.test("/personalities lists name, description, kind, source and the active one", async () => {
  const { fixture } = fixtureWithCatalog();
  try {
    const html = await (await fixture.app.request("/personalities")).text();
    assert.match(html, /<a href="\/personalities" class="active">Personalities<\/a>/);
    assert.match(
      html,
      /<tr data-personality="default"><td><a href="\/personalities\/default">default<\/a><span class="badge status-enabled">active<\/span><\/td><td>Radar&#39;s own voice<\/td><td><span class="badge">bundled<\/span><\/td><td class="muted" title="bundled">bundled<\/td>/,
    );
    assert.match(html, /Talks like a pirate/);
    assert.match(html, /<td class="muted" title="plugin:fun">plugin fun<\/td>/);
    assert.match(html, /Use pirate/);
    assert.ok(!/Delete (default|pirate)/.test(html), "only editable ones can be deleted");
  } finally {
    fixture.close();
  }
});

Deno.test("create, edit, activate and delete go through the catalog", async () => {
  const { fixture, catalog } = fixtureWithCatalog();
  try {
    const created = await fixture.app.request(
      "/personalities",
      postForm({ name: "night-owl", directory: "yes" }),
    );
    assert.equal(created.status, 303);
    assert.equal(created.headers.get("location"), "/personalities/night-owl?done=created");
    const text = "---\ndescription: <b>late</b>\n---\n</textarea><script>alert(1)</script>\n";
    const saved = await fixture.app.request("/personalities/night-owl", postForm({ text }));
    assert.equal(saved.status, 303);
    assert.equal(catalog.show("night-owl")?.text, text);
    const page = await (await fixture.app.request("/personalities/night-owl?done=saved")).text();
    assert.match(page, /Saved\./);
    assert.match(page, /&lt;\/textarea&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.ok(!page.includes("<script>alert"), "the file is escaped in the textarea");
    assert.ok(!page.includes("<b>late"));
    assert.match(page, /<dt>context<\/dt><dd><ul class="plain"><li><code>notes<\/code>/);
    const used = await fixture.app.request("/personalities/night-owl/use", postForm({}));
    assert.equal(used.headers.get("location"), "/personalities?done=used");
    assert.equal(catalog.activeName(), "night-owl");
    const ask = await (await fixture.app.request("/personalities/night-owl/delete")).text();
    assert.match(ask, /Delete the personality <strong>night-owl<\/strong>\?/);
    assert.match(ask, /<form method="post" action="\/personalities\/night-owl\/delete"/);
    const deleted = await fixture.app.request("/personalities/night-owl/delete", postForm({}));
    assert.equal(deleted.headers.get("location"), "/personalities?done=deleted");
    assert.deepEqual(catalog.calls, [
      "create night-owl directory",
      "update night-owl",
      "use night-owl",
      "remove night-owl",
    ]);
  } finally {
    fixture.close();
  }
});

Deno.test("catalog errors are one readable line: UsageError 400, NotFoundError 404", async () => {
  const { fixture } = fixtureWithCatalog();
  try {
    const cases: Array<[string, RequestInit | undefined, number, RegExp]> = [
      ["/personalities", postForm({ name: "Bad Name" }), 400, /is not a personality name/],
      ["/personalities", postForm({ name: "" }), 400, /A personality needs a name\./],
      ["/personalities", postForm({ name: "default" }), 400, /already exists/],
      [
        "/personalities/pirate",
        postForm({ text: "x" }),
        400,
        /plugin personality &quot;pirate&quot; is read-only/,
      ],
      [
        "/personalities/default/delete",
        undefined,
        400,
        /bundled personality &quot;default&quot; cannot be deleted/,
      ],
      ["/personalities/default/delete", postForm({}), 400, /read-only/],
      ["/personalities/ghost", undefined, 404, /No personality named &quot;ghost&quot;\./],
      ["/personalities/ghost/use", postForm({}), 404, /No personality named/],
      ["/personalities/ghost", postForm({ text: "x" }), 404, /No personality named/],
      [`/personalities/${"a".repeat(101)}`, undefined, 400, /name is too long/],
      [
        "/personalities/%3Cimg%20src%3Dx%3E",
        undefined,
        404,
        /No personality named &quot;&lt;img src=x&gt;&quot;/,
      ],
    ];
    for (const [path, init, status, message] of cases) {
      const response = await fixture.app.request(path, init);
      const html = await response.text();
      assert.equal(response.status, status, path);
      assert.match(
        html,
        new RegExp(`<div class="notice error" role="alert">[^<]*${message.source}`),
      );
    }
    const tooLong = await fixture.app.request(
      "/personalities/pirate",
      postForm({ text: "x".repeat(100_001) }),
    );
    assert.equal(tooLong.status, 400);
    await tooLong.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("personality changes need the session and a same-origin POST", async () => {
  const { fixture, catalog } = fixtureWithCatalog();
  try {
    const anonymous = await fixture.hono.request("/personalities/pirate/use", postForm({}));
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const crossSite = await fixture.app.request(
      "/personalities/pirate/use",
      postForm({}, { Origin: "http://evil.example" }),
    );
    assert.equal(crossSite.status, 403);
    await crossSite.body?.cancel();
    const noOrigin = await fixture.app.request("/personalities", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=sneaky",
    });
    assert.equal(noOrigin.status, 403);
    await noOrigin.body?.cancel();
    assert.deepEqual(catalog.calls, []);
    assert.equal(catalog.activeName(), "default");
  } finally {
    fixture.close();
  }
});

Deno.test("/personalities without a catalog says so", async () => {
  const fixture = createWebFixture();
  try {
    const page = await fixture.app.request("/personalities");
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Personalities not available\./);
    const post = await fixture.app.request("/personalities", postForm({ name: "x" }));
    assert.equal(post.status, 503);
    await post.body?.cancel();
  } finally {
    fixture.close();
  }
});

Deno.test("radar serve's dashboard edits the runtime's personality files", async () => {
  const dashboard = await runtimeDashboard("radar-web-personalities-");
  const { dataDir, radar, app, auth } = dashboard;
  try {
    const created = await app.request("/personalities", postForm({ name: "terse" }, auth));
    assert.equal(created.status, 303);
    const text = "---\ndescription: Short answers\n---\nAnswer in one sentence.\n";
    const saved = await app.request("/personalities/terse", postForm({ text }, auth));
    assert.equal(saved.status, 303);
    assert.equal(Deno.readTextFileSync(join(dataDir, "personalities", "terse.md")), text);
    await (await app.request("/personalities/terse/use", postForm({}, auth))).body?.cancel();
    assert.equal((await radar.personalities()).activeName(), "terse");
    const list = await (await app.request("/personalities", { headers: auth })).text();
    assert.match(
      list,
      /terse<\/a><span class="badge status-enabled">active<\/span><\/td><td>Short answers/,
    );
    // The source column is short (relative to the data folder); the whole path is its title.
    const file = join(dataDir, "personalities", "terse.md");
    assert.ok(
      list.includes(`<td class="muted" title="${file}">personalities/terse.md</td>`),
      list.slice(list.indexOf('data-personality="terse"')),
    );
    assert.ok(list.includes('<td class="muted" title="bundled">bundled</td>'));
  } finally {
    dashboard.close();
  }
});

Deno.test("the source column's short form: bundled, plugin NAME, relative to the data folder", () => {
  const data = "/home/me/.local/share/radar";
  const short = (kind: "flat" | "directory" | "plugin" | "bundled", source: string) =>
    shortPersonalitySource({ kind, source }, data);
  assert.equal(short("bundled", "bundled"), "bundled");
  assert.equal(short("plugin", "plugin:fun"), "plugin fun");
  assert.equal(short("flat", `${data}/personalities/pirate.md`), "personalities/pirate.md");
  assert.equal(short("directory", `${data}/personalities/owl`), "personalities/owl");
  // Outside the data folder (a sibling folder with the same prefix): whole.
  assert.equal(short("flat", "/srv/prompts/ops.md"), "/srv/prompts/ops.md");
  assert.equal(short("flat", `${data}-old/personalities/x.md`), `${data}-old/personalities/x.md`);
  assert.equal(short("flat", data), data);
  assert.equal(short("flat", "radar.personality"), "radar.personality");
  assert.equal(shortPersonalitySource({ kind: "flat", source: "/a/b.md" }), "/a/b.md");
});
