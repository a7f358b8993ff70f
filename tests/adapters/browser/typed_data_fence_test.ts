/**
 * The typed-data fence: open until something is typed; then only the origins typed into (and
 * approved targets), for requests by URL and for the proxy's connections by host and port.
 */
import assert from "node:assert/strict";
import { TypedDataFence } from "../../../src/adapters/browser/typed_data_fence.ts";

Deno.test("the fence is open until a page is typed into, then lets only its origins through", () => {
  const fence = new TypedDataFence();
  let changes = 0;
  fence.onChange(() => changes++);
  assert.equal(fence.allowsUrl("https://anywhere.example/x"), true);
  assert.equal(fence.allowsConnection(new URL("https://anywhere.example:443/")), true);

  fence.allow("https://shop.example/checkout?step=2");
  assert.equal(changes, 1);
  assert.deepEqual(fence.origins, ["https://shop.example"]);
  assert.equal(fence.allowsUrl("https://shop.example/api/draft"), true);
  assert.equal(fence.allowsUrl("wss://shop.example/socket"), true);
  assert.equal(fence.allowsUrl("http://shop.example/"), false, "another scheme is another origin");
  assert.equal(fence.allowsUrl("https://shop.example:8443/"), false, "another port too");
  assert.equal(fence.allowsUrl("https://cdn.shop.example/a.js"), false, "another host too");
  assert.equal(fence.allowsUrl("data:image/png;base64,AAAA"), true, "reaches no server");
  assert.equal(fence.allowsUrl("ftp://shop.example/"), false);
  assert.equal(fence.allowsConnection(new URL("https://shop.example:443/")), true);
  assert.equal(fence.allowsConnection(new URL("https://shop.example:8443/")), false);
  assert.equal(fence.allowsConnection(new URL("https://evil.example:443/")), false);

  fence.allow("https://shop.example/other");
  assert.equal(changes, 1, "nothing new");
  fence.allow("https://pay.example/approved");
  assert.equal(changes, 2);
  assert.equal(fence.allowsUrl("https://pay.example/done"), true);

  const blank = new TypedDataFence();
  blank.allow("about:blank");
  assert.equal(blank.active, true);
  assert.equal(blank.allowsUrl("https://shop.example/"), false, "typed into no site: nowhere");
});
