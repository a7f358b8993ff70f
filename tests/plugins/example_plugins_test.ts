/** The example plugins shipped in plugins/ install, pass their tests and work with their grant. */
import assert from "node:assert/strict";
import { readFolderFiles } from "../../src/plugins/plugin_files.ts";
import { examplePath } from "../sandbox/helpers.ts";
import { pluginFixture } from "./helpers.ts";

const context = { kind: "ask" as const, interactive: false, signal: new AbortController().signal };

Deno.test("plugins/text_utils passes its tests.yaml in the sandbox", async () => {
  const fixture = pluginFixture();
  try {
    fixture.system.manager.install(examplePath("text_utils"));
    const outcomes = await fixture.system.manager.test("text_utils");
    assert.deepEqual(outcomes.filter((outcome) => !outcome.passed), []);
    assert.equal(outcomes.length, 3);
  } finally {
    await fixture.close();
  }
});

Deno.test("plugins/feed_reader reads a feed from its one granted host and no other", async () => {
  const rss = `<?xml version="1.0"?><rss><channel>
    <item><title>First &amp; best</title><link>https://a.example/1</link></item>
    <item><title><![CDATA[Second]]></title><link>https://a.example/2</link></item>
  </channel></rss>`;
  const feed = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response(rss),
  );
  const fixture = pluginFixture();
  try {
    const files = readFolderFiles(examplePath("feed_reader"));
    files["manifest.yaml"] = files["manifest.yaml"].replace(
      '"hnrss.org:443"',
      `"127.0.0.1:${feed.addr.port}"`,
    );
    fixture.system.manager.install(fixture.source("feed_reader", files));
    const details = fixture.system.api.details("feed_reader");
    assert.deepEqual(details.permissions, [`connect to 127.0.0.1:${feed.addr.port}`]);
    await fixture.system.api.approve("feed_reader");
    const tool = fixture.registry.get("latest_headlines");
    assert.ok(tool);
    assert.equal(
      await tool.run({ feed_url: `http://127.0.0.1:${feed.addr.port}/rss`, limit: 5 }, context),
      "First & best — https://a.example/1\nSecond — https://a.example/2",
    );
    const elsewhere = await tool.run({ feed_url: "http://127.0.0.1:9/rss" }, context);
    assert.equal(typeof elsewhere === "string" ? "ok" : elsewhere.outcome, "error");
  } finally {
    await fixture.close();
    await feed.shutdown();
  }
});
