import assert from "node:assert/strict";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { createWebFixture } from "./web_fixture.ts";

/** A fixture whose digests are `count` daily ones on real SQLite, the last one hostile. */
function fixtureWithDigests(count: number) {
  const fixture = createWebFixture();
  const store = new SqliteDigestStore(fixture.db);
  for (let day = 1; day <= count; day++) {
    const start = new Date(Date.UTC(2026, 9, day));
    store.save({
      period: "day",
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 86_400_000).toISOString(),
      content: day === count
        ? "- Met **Alice** about the budget <script>alert(1)</script> ![x](http://evil/x.png)"
        : `- Day ${day}: nothing about kettles`,
      createdAt: start.toISOString(),
    });
  }
  store.save({
    period: "week",
    startsAt: "2026-09-28T00:00:00.000Z",
    endsAt: "2026-10-05T00:00:00.000Z",
    content: "- A week of kettle descaling",
    createdAt: "2026-10-05T00:00:00.000Z",
  });
  fixture.deps.digests = store; // the routes read their deps per request
  return fixture;
}

Deno.test("/summaries lists digests newest first as safe Markdown, ten per page", async () => {
  const fixture = fixtureWithDigests(25);
  try {
    const first = await (await fixture.app.request("/summaries")).text();
    const cards = [...first.matchAll(/<article class="card digest" id="digest-(\d+)"/g)];
    assert.equal(cards.length, 10);
    assert.match(first, /Daily digest <span class="muted">2026-10-25 00:00 – 2026-10-26 00:00 UTC/);
    assert.ok(
      first.indexOf("2026-10-25 00:00") < first.indexOf("2026-10-24 00:00"),
      "newest first",
    );
    assert.match(first, /<strong>Alice<\/strong>/, "Markdown is rendered");
    assert.match(first, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, "raw HTML stays text");
    assert.ok(!first.includes("<script>alert"));
    assert.ok(!/<img/.test(first), "no images load");
    assert.match(first, /href="\/summaries\?page=2" rel="next"/);
    assert.ok(!first.includes('rel="prev"'));

    const third = await (await fixture.app.request("/summaries?page=3")).text();
    assert.equal([...third.matchAll(/class="card digest"/g)].length, 6, "5 days and the week");
    assert.match(third, /Weekly digest/);
    assert.ok(!third.includes('rel="next"'));
    assert.match(third, /href="\/summaries\?page=2" rel="prev"/);

    const silly = await fixture.app.request("/summaries?page=-4");
    assert.equal(silly.status, 200);
    assert.match(await silly.text(), /page 1/);
  } finally {
    fixture.close();
  }
});

Deno.test("/summaries?q= searches the digests with the store's full-text search", async () => {
  const fixture = fixtureWithDigests(3);
  try {
    const found = await (await fixture.app.request("/summaries?q=descaling")).text();
    assert.match(found, /1 match for “descaling”/);
    assert.match(found, /A week of kettle descaling/);
    assert.ok(!found.includes("Day 1"));
    assert.ok(!found.includes('class="pagination'), "search results have one page");
    const none = await (await fixture.app.request("/summaries?q=zebra")).text();
    assert.match(none, /No digest matches\./);
    const hostile = await (await fixture.app.request('/summaries?q="><script>x</script>')).text();
    assert.ok(!hostile.includes("<script>x"), "the search words are escaped");
  } finally {
    fixture.close();
  }
});

Deno.test("/summaries without a digest store says so", async () => {
  const fixture = createWebFixture();
  try {
    const response = await fixture.app.request("/summaries");
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Digests not available\./);
  } finally {
    fixture.close();
  }
});
