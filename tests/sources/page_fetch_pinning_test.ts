import assert from "node:assert/strict";
import { fetchPage } from "../../src/sources/monitors/page_fetch.ts";
import type { PinnedFetch } from "../../src/adapters/network/pinned_fetch.ts";

Deno.test("fetchPage() connects to the address it checked: a second DNS answer cannot rebind it", async () => {
  const answers = [["93.184.216.34"], ["127.0.0.1"]];
  let lookups = 0;
  const connectedTo: string[] = [];
  const pinned: PinnedFetch = (url, address) => {
    connectedTo.push(`${url.hostname}@${address}`);
    return Promise.resolve({
      response: new Response("<p>price: 10</p>", { headers: { "content-type": "text/html" } }),
      close: () => {},
    });
  };
  const result = await fetchPage("https://shop.example/item", "", {}, {
    fetch: () => Promise.reject(new Error("an unpinned fetch must not happen")),
    allowPrivate: false,
    resolve: () => Promise.resolve(answers[Math.min(lookups++, answers.length - 1)]),
    pinned,
    timeoutMs: 5_000,
  });
  assert.deepEqual(result.status === "ok" ? result.text : result, "price: 10");
  assert.equal(lookups, 1, "the host is resolved once per hop");
  assert.deepEqual(connectedTo, ["shop.example@93.184.216.34"]);
});

Deno.test("fetchPage() checks every redirect hop and refuses one that resolves privately", async () => {
  const pinned: PinnedFetch = (url) =>
    Promise.resolve({
      response: url.hostname === "shop.example"
        ? new Response(null, { status: 302, headers: { location: "http://intranet.example/" } })
        : new Response("secret"),
      close: () => {},
    });
  const result = await fetchPage("https://shop.example/", "", {}, {
    fetch: () => Promise.reject(new Error("unpinned")),
    allowPrivate: false,
    resolve: (host) =>
      Promise.resolve(host === "intranet.example" ? ["10.0.0.5"] : ["93.184.216.34"]),
    pinned,
    timeoutMs: 5_000,
  });
  assert.equal(result.status, "error");
  assert.match(result.status === "error" ? result.error : "", /refused: .*10\.0\.0\.5/);
});
