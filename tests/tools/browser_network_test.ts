/**
 * The network guard around the browser, in real Chromium: private addresses are refused for
 * navigations (typed, clicked, redirected) and for everything a page loads (images, scripts,
 * fetches, frames, WebSockets), while the one loopback server the test config allows works; and
 * names are resolved only by Radar's guard (Chromium cannot resolve any name itself), so what the
 * guard checked is what the browser reaches.
 */
import { needing } from "../helpers/system_parts.ts";
import assert from "node:assert/strict";
import type { ToolContext } from "../../src/core/tool.ts";
import type { Resolver } from "../../src/adapters/network/network_guard.ts";
import { browserConfig, browserUnderTest, servePages } from "../helpers/browser_pages.ts";
import { call } from "./tool_harness.ts";

function chatRun(): ToolContext {
  return {
    kind: "chat",
    conversationId: 3,
    interactive: true,
    signal: new AbortController().signal,
    confirm: () => Promise.resolve(false),
    atRunEnd: () => {},
  };
}

Deno.test(
  needing(["chromium"], {
    name: "navigations to private addresses are refused; the allowed loopback server works",
  }, async () => {
    // 127.0.0.2 is loopback as well, but not on the allow-list: it stands for the LAN.
    const inside = servePages({ "/": "<p>router admin</p>", "/pixel": "x" }, "127.0.0.2");
    const page = `<p>Welcome</p><a href="${inside.origin}/">Router</a>
    <a href="/hop">Hop</a>`;
    const server = servePages({
      "/": page,
      "/hop": () => new Response(null, { status: 302, headers: { location: `${inside.origin}/` } }),
    });
    const browser = browserUnderTest(browserConfig());
    const context = chatRun();
    try {
      for (const url of [`${inside.origin}/`, "http://10.0.0.1/", "http://localhost:9/"]) {
        const result = await call(browser.tool, { action: "open", url }, context);
        assert.equal(result.outcome, "refused", result.text);
        assert.match(result.text, /browser\.allowed_hosts or browser\.allow_private/);
      }
      for (const url of ["file:///etc/passwd", "chrome://version", "data:text/html,<p>x</p>"]) {
        const result = await call(browser.tool, { action: "open", url }, context);
        assert.equal(result.outcome, "refused", result.text);
        assert.match(result.text, /only http and https/);
      }
      const home = await call(browser.tool, { action: "open", url: `${server.origin}/` }, context);
      assert.match(home.text, /Welcome/);
      // A link and a redirect into the LAN reach the proxy, which refuses them.
      const clicked = await call(browser.tool, { action: "click", ref: "l1" }, context);
      assert.match(clicked.text, /Refused by Radar's network guard: 127\.0\.0\.2 .*loopback/);
      await call(browser.tool, { action: "open", url: `${server.origin}/` }, context);
      const hopped = await call(browser.tool, { action: "click", ref: "l2" }, context);
      assert.match(hopped.text, /Refused by Radar's network guard/);
      assert.deepEqual(inside.seen, [], "nothing reached the private server");
    } finally {
      await browser.close();
      await server.close();
      await inside.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "a page's subrequests to a private address are refused, WebSockets included",
  }, async () => {
    const inside = servePages({ "/pixel": "x", "/data": "{}", "/frame": "<p>f</p>" }, "127.0.0.2");
    const target = inside.origin;
    const page = `<p>Hello</p>
    <img src="${target}/pixel">
    <iframe src="${target}/frame"></iframe>
    <script src="${target}/script.js"></script>
    <script>
      fetch("${target}/data").catch(() => {});
      try { new WebSocket("${target.replace("http", "ws")}/socket"); } catch {}
      navigator.sendBeacon("${target}/beacon", "x");
    </script>`;
    const server = servePages({ "/": page });
    const browser = browserUnderTest(browserConfig());
    try {
      const result = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/` },
        chatRun(),
      );
      assert.equal(result.outcome, "ok", result.text);
      assert.match(result.text, /Hello/);
      assert.match(result.text, /Refused by the network guard: 127\.0\.0\.2:\d+: .*loopback/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(inside.seen, [], "no subrequest reached the private server");
    } finally {
      await browser.close();
      await server.close();
      await inside.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name:
      "WebSockets go through the guard too: to the allowed server they work, inward they do not",
  }, async () => {
    const inside = servePages({}, "127.0.0.2");
    const server = servePages({
      "/socket": (request) => {
        const { socket, response } = Deno.upgradeWebSocket(request);
        socket.onopen = () => socket.send("hello from the server");
        return response;
      },
      "/": `<p id="state">waiting</p><script>
      const state = document.getElementById("state");
      const open = new WebSocket("ws://" + location.host + "/socket");
      open.onmessage = (event) => state.textContent = "got: " + event.data;
      const inward = new WebSocket("${inside.origin.replace("http", "ws")}/socket");
      inward.onerror = () => document.body.append(" inward socket failed");
    </script>`,
    });
    const browser = browserUnderTest(browserConfig());
    const context = chatRun();
    try {
      await call(browser.tool, { action: "open", url: `${server.origin}/` }, context);
      let text = "";
      for (let attempt = 0; attempt < 30 && !/inward socket failed/.test(text); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        text = (await call(browser.tool, { action: "read" }, context)).text;
      }
      assert.match(text, /got: hello from the server/);
      assert.match(text, /inward socket failed/);
      assert.deepEqual(inside.seen, []);
    } finally {
      await browser.close();
      await server.close();
      await inside.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "Chromium resolves no name itself: the guard resolves, checks and pins each one",
  }, async () => {
    const server = servePages({
      "/": (request) =>
        new Response(`<p>Shop at ${request.headers.get("host")}</p>`, {
          headers: { "content-type": "text/html" },
        }),
    });
    const inside = servePages({ "/": "<p>inside</p>" }, "127.0.0.2");
    // The test's DNS: shop.test is the allowed server, evil.test a private address.
    const names: Record<string, string[]> = {
      "shop.test": ["127.0.0.1"],
      "evil.test": ["127.0.0.2"],
    };
    const resolve: Resolver = (host) =>
      names[host] ? Promise.resolve(names[host]) : Promise.reject(new Error("no such name"));
    const browser = browserUnderTest(browserConfig(), { resolve });
    const context = chatRun();
    try {
      const shop = await call(browser.tool, {
        action: "open",
        url: `http://shop.test:${server.port}/`,
      }, context);
      assert.equal(shop.outcome, "ok", shop.text);
      // Reached through the checked address, with the name kept for the site.
      assert.match(shop.text, new RegExp(`Shop at shop\\.test:${server.port}`));
      const evil = await call(browser.tool, {
        action: "open",
        url: `http://evil.test:${inside.port}/`,
      }, context);
      assert.equal(evil.outcome, "refused", evil.text);
      assert.match(evil.text, /evil\.test resolves to 127\.0\.0\.2, a loopback address/);
      const unknown = await call(browser.tool, {
        action: "open",
        url: `http://nowhere.test:${server.port}/`,
      }, context);
      assert.equal(unknown.outcome, "refused", unknown.text);
      assert.match(unknown.text, /cannot resolve nowhere\.test/);
      assert.deepEqual(inside.seen, []);
    } finally {
      await browser.close();
      await server.close();
      await inside.close();
    }
  }),
);
