import assert from "node:assert/strict";
import { fetchUrlTool } from "../../src/tools/fetch_url.ts";
import { checkUrl } from "../../src/adapters/network/network_guard.ts";
import { htmlToText } from "../../src/adapters/network/html_to_text.ts";
import type { PinnedFetch } from "../../src/adapters/network/pinned_fetch.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

function startSite() {
  const paths: string[] = [];
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    onListen() {},
  }, (request): Response => {
    const url = new URL(request.url);
    paths.push(url.pathname);
    switch (url.pathname) {
      case "/page":
        return new Response(
          `<html><head><title>Hello &amp; welcome</title><style>body{color:red}</style></head>
           <body><script>alert("x")</script><h1>Radar</h1><p>Local-first&nbsp;assistant.</p>
           <ul><li>one</li><li>two</li></ul><!-- hidden --></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      case "/hop":
        return new Response(null, { status: 302, headers: { location: "/page" } });
      case "/to-internal":
        return new Response(null, {
          status: 301,
          headers: { location: `http://127.0.0.1:${server.addr.port}/secret` },
        });
      case "/loop":
        return new Response(null, { status: 302, headers: { location: "/loop" } });
      case "/binary":
        return new Response(new Uint8Array([1, 2, 3]), {
          headers: { "content-type": "application/pdf" },
        });
      case "/long":
        return new Response("x".repeat(5000), { headers: { "content-type": "text/plain" } });
      default:
        return new Response("nope", { status: 404, statusText: "Not Found" });
    }
  });
  return { server, paths, base: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("fetch_url refuses loopback by default and reads pages when allowed", async () => {
  const home = tempHome();
  const site = startSite();
  try {
    let result = await call(fetchUrlTool(toolDeps(home)), { url: `${site.base}/page` });
    assert.equal(result.outcome, "refused");
    assert.match(
      result.text,
      /127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address \(tools\.fetch_url\.allow_private\)/,
    );
    assert.deepEqual(site.paths, [], "no request was made");
    const tool = fetchUrlTool(toolDeps(home, (c) => {
      c.tools.fetch_url.allow_private = true;
      c.tools.fetch_url.max_chars = 1000;
    }));
    result = await call(tool, { url: `${site.base}/hop` });
    assert.equal(result.outcome, "ok");
    assert.equal(
      result.text,
      `${site.base}/page\nTitle: Hello & welcome\n\nRadar\n\nLocal-first assistant.\n\n- one\n- two`,
    );
    assert.match(
      (await call(tool, { url: `${site.base}/long` })).text,
      /x{1000}\n\[cut: 4000 characters not shown/,
    );
    assert.match(
      (await call(tool, { url: `${site.base}/binary` })).text,
      /is a PDF \(3 bytes\), not a web page: save it .*pdf_extract/,
    );
    assert.match((await call(tool, { url: `${site.base}/missing` })).text, /404 Not Found/);
    assert.match((await call(tool, { url: `${site.base}/loop` })).text, /more than 5 redirects/);
    assert.match((await call(tool, { url: "file:///etc/passwd" })).text, /only http and https/);
    assert.match((await call(tool, { url: "not a url" })).text, /Not a valid URL/);
  } finally {
    await site.server.shutdown();
    home.dispose();
  }
});

Deno.test("fetch_url re-checks every redirect and every resolved address", async () => {
  const home = tempHome();
  const site = startSite();
  try {
    // public.example "resolves" to a public address; the fetch is routed to the local site.
    const resolve = (host: string) =>
      Promise.resolve(host === "public.example" ? ["93.184.216.34"] : ["10.0.0.5"]);
    const routed: PinnedFetch = async (url, _address, init) => ({
      response: await fetch(String(url).replace("http://public.example", site.base), init),
      close: () => {},
    });
    const tool = fetchUrlTool(toolDeps(home), resolve, routed);
    let result = await call(tool, { url: "http://public.example/to-internal" });
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /Cannot fetch http:\/\/127\.0\.0\.1:\d+\/secret: .*loopback/);
    assert.deepEqual(site.paths, ["/to-internal"], "the internal target was never requested");
    result = await call(tool, { url: "http://intranet.example/" });
    assert.match(result.text, /intranet\.example resolves to 10\.0\.0\.5, a private address/);
    for (
      const url of [
        "http://localhost:8080/",
        "http://0x7f000001/",
        "http://2130706433/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::1]/",
        "http://169.254.169.254/latest/meta-data/",
      ]
    ) {
      assert.equal((await call(tool, { url })).outcome, "refused", url);
    }
  } finally {
    await site.server.shutdown();
    home.dispose();
  }
});

Deno.test("checkUrl() refuses credentials and unresolvable hosts", async () => {
  const options = { allowPrivate: false, resolve: () => Promise.reject(new Error("no such host")) };
  assert.match(
    (await checkUrl(new URL("https://u:p@example.com/"), options))!,
    /user name or password/,
  );
  assert.match(
    (await checkUrl(new URL("https://nowhere.example/"), options))!,
    /cannot resolve nowhere\.example: no such host/,
  );
});

Deno.test("htmlToText() drops unterminated scripts and decodes numeric entities", () => {
  assert.deepEqual(htmlToText("<p>a&#x41;&#66;</p><script>evil("), { title: "", text: "aAB" });
});
