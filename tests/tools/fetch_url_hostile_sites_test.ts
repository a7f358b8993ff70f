/** fetch_url against hostile sites: address tricks, bombs, slow bodies, binary bodies, hostile HTML. */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { fetchUrlTool } from "../../src/tools/fetch_url.ts";
import { htmlToText } from "../../src/adapters/network/html_to_text.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

// 64 MB of zeros, about 64 KB on the wire: fetch decompresses while fetch_url reads.
const zeroBomb = new Uint8Array(gzipSync(new Uint8Array(64 * 1024 * 1024)));
const textBomb = new Uint8Array(gzipSync(new TextEncoder().encode("<p>a</p>".repeat(4_000_000))));

function startHostileSite() {
  const timers = new Set<ReturnType<typeof setInterval>>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/bomb") {
      return new Response(zeroBomb, {
        headers: { "content-type": "text/html", "content-encoding": "gzip" },
      });
    }
    if (path === "/text-bomb") {
      return new Response(textBomb, {
        headers: { "content-type": "text/html", "content-encoding": "gzip" },
      });
    }
    if (path === "/slow") {
      let timer: ReturnType<typeof setInterval> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("<p>"));
          timer = setInterval(() => {
            try {
              controller.enqueue(new TextEncoder().encode("a"));
            } catch {
              clearInterval(timer);
            }
          }, 100);
          timers.add(timer);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "text/html" } });
    }
    if (path === "/untyped-binary") return new Response(new Uint8Array([0x7f, 0x45, 0, 0, 1]));
    if (path === "/pdf") {
      return new Response("%PDF-1.7\n...", { headers: { "content-type": "application/pdf" } });
    }
    return new Response("<p>ok</p>", { headers: { "content-type": "text/html" } });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await server.shutdown();
    },
  };
}

Deno.test("fetch_url caps decompressed bodies, times out slow bodies, refuses binary", async () => {
  const home = tempHome();
  const site = startHostileSite();
  try {
    const tool = fetchUrlTool(toolDeps(home, (config) => {
      config.tools.fetch_url.allow_private = true;
      config.tools.fetch_url.timeout_seconds = 1;
    }));
    let result = await call(tool, { url: `${site.base}/bomb` });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /binary data \(\d+\+ bytes\)/, "read stopped at the cap");
    result = await call(tool, { url: `${site.base}/text-bomb` });
    assert.equal(result.outcome, "ok");
    assert.match(result.text, /\[cut: /);
    assert.ok(result.text.length < 10_000);
    const started = performance.now();
    result = await call(tool, { url: `${site.base}/slow` });
    assert.equal(result.outcome, "timeout");
    assert.match(result.text, /timed out after 1 s while reading the page/);
    assert.ok(performance.now() - started < 4000);
    result = await call(tool, { url: `${site.base}/untyped-binary` });
    assert.match(result.text, /binary data \(5 bytes\), not a web page/);
    result = await call(tool, { url: `${site.base}/pdf` });
    assert.match(result.text, /is a PDF .*use pdf_extract/);
  } finally {
    await site.stop();
    home.dispose();
  }
});

Deno.test("fetch_url refuses more address spellings and schemes without a request", async () => {
  const home = tempHome();
  try {
    let requests = 0;
    const counting: typeof fetch = () => {
      requests++;
      return Promise.resolve(new Response("no"));
    };
    const resolve = (host: string) =>
      Promise.resolve(host === "rebind.example" ? ["93.184.216.34", "127.0.0.1"] : ["10.1.1.1"]);
    const tool = fetchUrlTool(toolDeps(home, () => {}, { fetch: counting }), resolve);
    for (
      const url of [
        "http://localhost./",
        "http://LOCALHOST.:8080/",
        "http://app.localhost/",
        "http://127.1/",
        "http://0/",
        "http://0177.0.0.1/",
        "http://[::]/",
        "http://[0:0:0:0:0:ffff:7f00:1]/",
        "http://rebind.example/",
        "http://internal.example/",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "data:text/html,<p>x",
        "javascript:alert(1)",
        "http://user:pass@example.com/",
      ]
    ) {
      const result = await call(tool, { url });
      assert.equal(result.outcome, "refused", url);
    }
    assert.equal(requests, 0);
  } finally {
    home.dispose();
  }
});

Deno.test("htmlToText() stays linear on hostile markup (unclosed tags, comments, scripts)", () => {
  for (
    const piece of ["<script>", "<!--", "<p", "<a ", "<title", "<style x='", "<head>", "&amp"]
  ) {
    const html = piece.repeat(400_000 / piece.length);
    const started = performance.now();
    htmlToText(html);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 500, `${piece}: ${Math.round(elapsed)} ms`);
  }
  assert.deepEqual(
    htmlToText("<a title=\"x>y\" href='/'>link</a> a < b <!-- c --> d<br>e"),
    { title: "", text: "link a < b d\ne" },
  );
});
