/**
 * Hostile and broken pages in real Chromium: a page that never finishes loading, one that opens a
 * hundred popups, one whose script never returns, dialogs in a loop, a download, a form posted by
 * the page itself, a ref that is not there. Each call ends within `browser.call_seconds`, what the
 * page did is said in one line, and the browser stays usable (or is replaced by a fresh one).
 */
import assert from "node:assert/strict";
import {
  browserConfig,
  browserProcessesAfter,
  browserTest,
  radarBrowserProcesses,
} from "../helpers/browser_pages.ts";

const fast = browserConfig((config) => config.browser.call_seconds = 4);

/** A test in a chat's browser over `pages`, its calls limited to 4 s. */
function browsing(
  name: string,
  pages: Parameters<typeof browserTest>[1],
  work: Parameters<typeof browserTest>[2],
): Deno.TestDefinition {
  return browserTest(name, pages, work, { config: fast });
}

const streams: ReadableStreamDefaultController<Uint8Array>[] = [];

Deno.test(browsing(
  "a page that never finishes loading: the call returns what it shows, in time",
  {
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
  },
  async ({ open }) => {
    try {
      // The browser starts first (its start has a limit of its own).
      assert.match((await open("/ok")).text, /All fine/);
      const started = performance.now();
      const slow = await open("/slow");
      const took = performance.now() - started;
      assert.ok(took < 8000, `took ${took} ms (browser.call_seconds: 4)`);
      assert.equal(slow.outcome, "ok", slow.text);
      assert.match(slow.text, /still loading when the call's time was up/);
      assert.match(slow.text, /Partial price list: coffee 3\.20/);
      assert.match((await open("/ok")).text, /All fine/);
    } finally {
      for (const stream of streams.splice(0)) {
        try {
          stream.close();
        } catch { /* cancelled by the browser */ }
      }
    }
  },
));

Deno.test(browsing(
  "a page that opens 100 popups: they are blocked or closed and the page goes on",
  {
    "/": `<p>Great offers</p>
      <button type="button" onclick="for (let i = 0; i < 100; i++) window.open('/offer?click=' + i)">More offers</button>
      <script>for (let i = 0; i < 100; i++) window.open("/offer?load=" + i);</script>`,
    "/offer": "<p>offer</p>",
  },
  async ({ act, open }, { server }) => {
    const opened = await open("/");
    assert.equal(opened.outcome, "ok", opened.text);
    assert.match(opened.text, /Great offers/);
    const clicked = await act({ action: "click", ref: "b1" });
    assert.equal(clicked.outcome, "ok", clicked.text);
    assert.match(clicked.text, /Browser: closed \d+ popup window\(s\)/);
    assert.match((await act({ action: "read" })).text, /Great offers/);
    const offers = server.seen.filter((request) => request.path.startsWith("/offer"));
    assert.ok(offers.length < 100, `${offers.length} popups loaded`);
  },
));

Deno.test(browsing(
  "a script that never returns: the call times out, the browser is killed, a new one works",
  {
    "/": `<p>Calculator</p><button type="button" onclick="while (true) {}">Compute</button>`,
    "/ok": "<p>Fresh start</p>",
  },
  async ({ act, open }) => {
    await open("/");
    assert.equal(radarBrowserProcesses().length, 1);
    const stuck = await act({ action: "click", ref: "b1" });
    assert.equal(stuck.outcome, "timeout", stuck.text);
    assert.match(
      stuck.text,
      /did not answer within 4 s \(browser\.call_seconds\); the browser was closed/,
    );
    assert.deepEqual(await browserProcessesAfter(10_000), [], "the stuck browser is gone");
    assert.match((await open("/ok")).text, /Fresh start/);
  },
));

Deno.test(browsing(
  "dialogs are dismissed and downloads refused",
  {
    "/": `<p>Annoying</p><a href="/file">Get the report</a>
      <script>for (let i = 0; i < 20; i++) alert("Subscribe now " + i);</script>`,
    "/file": () =>
      new Response("secret,report\n", {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": 'attachment; filename="report.csv"',
        },
      }),
  },
  async ({ act, open }) => {
    const opened = await open("/");
    assert.match(opened.text, /Annoying/);
    assert.match(opened.text, /dismissed dialog\(s\): "Subscribe now 0"/);
    assert.match((await act({ action: "click", ref: "l1" })).text, /refused 1 download\(s\)/);
  },
));

Deno.test(browsing(
  "a page that posts a form on its own while loading: not sent, and said so",
  {
    "/": `<p>Redirecting…</p><form id="go" method="post" action="/collect">
      <input type="hidden" name="who" value="radar"></form>
      <script>document.getElementById("go").submit();</script>`,
    "/collect": "<p>collected</p>",
  },
  async ({ open }, { server }) => {
    const opened = await open("/");
    assert.match(opened.text, /Redirecting/);
    assert.match(
      opened.text,
      /Not sent \(the page tried on its own\): POST http:\/\/127\.0\.0\.1:\d+\/collect \(POST navigation\)/,
    );
    assert.deepEqual(server.seen.filter((request) => request.method === "POST"), []);
  },
));

Deno.test(browsing(
  "a ref that is not on the page fails alone: the browser stays",
  { "/": "<p>Plain page</p><a href='/x'>X</a>" },
  async ({ act, open }, { sessions }) => {
    await open("/");
    const missing = await act({ action: "click", ref: "b7" });
    assert.equal(missing.outcome, "error");
    assert.match(missing.text, /b7 is not on the page \(read the page again for its refs\)/);
    const filled = await act({ action: "fill", values: { f9: "x" } });
    assert.match(filled.text, /Not filled: f9: f9 is not on the page/);
    assert.match((await act({ action: "read" })).text, /Plain page/);
    assert.equal(sessions.open, 1);
  },
));
