/**
 * Hostile and broken pages in real Chromium: a page that never finishes loading, one that opens a
 * hundred popups, one whose script never returns, dialogs in a loop, a download. Each call ends
 * within `browser.call_seconds`, what the page did is said in one line, and the browser stays
 * usable (or is replaced by a fresh one).
 */
import { needing } from "../helpers/system_parts.ts";
import assert from "node:assert/strict";
import type { ToolContext } from "../../src/core/tool.ts";
import {
  browserConfig,
  browserProcessesAfter,
  browserUnderTest,
  radarBrowserProcesses,
  servePages,
} from "../helpers/browser_pages.ts";
import { call } from "./tool_harness.ts";

function chatRun(): ToolContext {
  return {
    kind: "chat",
    conversationId: 5,
    interactive: true,
    signal: new AbortController().signal,
    confirm: () => Promise.resolve(false),
    atRunEnd: () => {},
  };
}

const fast = browserConfig((config) => config.browser.call_seconds = 4);

Deno.test(
  needing(["chromium"], {
    name: "a page that never finishes loading: the call returns what it shows, in time",
  }, async () => {
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const server = servePages({
      "/slow": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              streams.push(controller);
              controller.enqueue(
                new TextEncoder().encode("<html><body><p>Partial price list: coffee 3.20</p>"),
              );
            },
          }),
          { headers: { "content-type": "text/html" } },
        ),
      "/ok": "<p>All fine</p>",
    });
    const browser = browserUnderTest(fast);
    const context = chatRun();
    try {
      // The browser starts first (its start has a limit of its own).
      const first = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/ok` },
        context,
      );
      assert.match(first.text, /All fine/);
      const started = performance.now();
      const slow = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/slow` },
        context,
      );
      const took = performance.now() - started;
      assert.ok(took < 8000, `took ${took} ms (browser.call_seconds: 4)`);
      assert.equal(slow.outcome, "ok", slow.text);
      assert.match(slow.text, /still loading when the call's time was up/);
      assert.match(slow.text, /Partial price list: coffee 3\.20/);
      const next = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/ok` },
        context,
      );
      assert.match(next.text, /All fine/);
    } finally {
      for (const stream of streams) {
        try {
          stream.close();
        } catch { /* cancelled by the browser */ }
      }
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "a page that opens 100 popups: they are blocked or closed and the page goes on",
  }, async () => {
    const page = `<p>Great offers</p>
    <button id="more" type="button" onclick="for (let i = 0; i < 100; i++) window.open('/offer?click=' + i)">More offers</button>
    <script>for (let i = 0; i < 100; i++) window.open("/offer?load=" + i);</script>`;
    const server = servePages({ "/": page, "/offer": "<p>offer</p>" });
    const browser = browserUnderTest(fast);
    const context = chatRun();
    try {
      const opened = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/` },
        context,
      );
      assert.equal(opened.outcome, "ok", opened.text);
      assert.match(opened.text, /Great offers/);
      const clicked = await call(browser.tool, { action: "click", ref: "b1" }, context);
      assert.equal(clicked.outcome, "ok", clicked.text);
      assert.match(clicked.text, /Browser: closed \d+ popup window\(s\)/);
      const read = await call(browser.tool, { action: "read" }, context);
      assert.match(read.text, /Great offers/);
      const offers = server.seen.filter((request) => request.path.startsWith("/offer"));
      assert.ok(offers.length < 100, `${offers.length} popups loaded`);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "a script that never returns: the call times out, the browser is killed, a new one works",
  }, async () => {
    const server = servePages({
      "/": `<p>Calculator</p><button type="button" onclick="while (true) {}">Compute</button>`,
      "/ok": "<p>Fresh start</p>",
    });
    const browser = browserUnderTest(fast);
    const context = chatRun();
    try {
      await call(browser.tool, { action: "open", url: `${server.origin}/` }, context);
      const before = radarBrowserProcesses();
      assert.equal(before.length, 1);
      const stuck = await call(browser.tool, { action: "click", ref: "b1" }, context);
      assert.equal(stuck.outcome, "timeout", stuck.text);
      assert.match(
        stuck.text,
        /did not answer within 4 s \(browser\.call_seconds\); the browser was closed/,
      );
      assert.deepEqual(await browserProcessesAfter(10_000), [], "the stuck browser is gone");
      const fresh = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/ok` },
        context,
      );
      assert.match(fresh.text, /Fresh start/);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], { name: "dialogs are dismissed and downloads refused" }, async () => {
    const server = servePages({
      "/": `<p>Annoying</p><a href="/file">Get the report</a>
      <script>for (let i = 0; i < 20; i++) alert("Subscribe now " + i);</script>`,
      "/file": () =>
        new Response("secret,report\n", {
          headers: {
            "content-type": "application/octet-stream",
            "content-disposition": 'attachment; filename="report.csv"',
          },
        }),
    });
    const browser = browserUnderTest(fast);
    const context = chatRun();
    try {
      const opened = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/` },
        context,
      );
      assert.match(opened.text, /Annoying/);
      assert.match(opened.text, /dismissed dialog\(s\): "Subscribe now 0"/);
      const clicked = await call(browser.tool, { action: "click", ref: "l1" }, context);
      assert.match(clicked.text, /refused 1 download\(s\)/);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "a page that posts a form on its own while loading: not sent, and said so",
  }, async () => {
    const server = servePages({
      "/": `<p>Redirecting…</p><form id="go" method="post" action="/collect">
      <input type="hidden" name="who" value="radar"></form>
      <script>document.getElementById("go").submit();</script>`,
      "/collect": "<p>collected</p>",
    });
    const browser = browserUnderTest(fast);
    const context = chatRun();
    try {
      const opened = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/` },
        context,
      );
      assert.match(opened.text, /Redirecting/);
      assert.match(
        opened.text,
        /Not sent \(the page tried on its own\): POST http:\/\/127\.0\.0\.1:\d+\/collect \(POST navigation\)/,
      );
      assert.deepEqual(server.seen.filter((request) => request.method === "POST"), []);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(
    ["chromium"],
    { name: "a ref that is not on the page fails alone: the browser stays" },
    async () => {
      const server = servePages({ "/": "<p>Plain page</p><a href='/x'>X</a>" });
      const browser = browserUnderTest(fast);
      const context = chatRun();
      try {
        await call(browser.tool, { action: "open", url: `${server.origin}/` }, context);
        const missing = await call(browser.tool, { action: "click", ref: "b7" }, context);
        assert.equal(missing.outcome, "error");
        assert.match(missing.text, /b7 is not on the page \(read the page again for its refs\)/);
        const filled = await call(browser.tool, { action: "fill", values: { f9: "x" } }, context);
        assert.match(filled.text, /Not filled: f9: f9 is not on the page/);
        const read = await call(browser.tool, { action: "read" }, context);
        assert.match(read.text, /Plain page/);
        assert.equal(browser.sessions.open, 1);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
