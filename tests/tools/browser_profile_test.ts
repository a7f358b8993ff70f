/**
 * Profiles: by default every session starts with a fresh temporary profile (a login does not
 * outlive it); `browser.profile` names one in the data folder that keeps cookies between sessions.
 */
import { needing } from "../helpers/system_parts.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolContext } from "../../src/core/tool.ts";
import { browserConfig, browserUnderTest, servePages } from "../helpers/browser_pages.ts";
import { askContext, call } from "./tool_harness.ts";

const site = () =>
  servePages({
    "/login": () =>
      new Response("<p>Logged in</p>", {
        headers: {
          "content-type": "text/html",
          "set-cookie": "session=abc123; Max-Age=3600; Path=/",
        },
      }),
    "/account": (request) =>
      new Response(`<p>Cookie: ${request.headers.get("cookie") ?? "none"}</p>`, {
        headers: { "content-type": "text/html" },
      }),
  });

/** Each call outside a run closes its browser: every call here is a new session. */
const oneCall = (): ToolContext => ({ ...askContext(), conversationId: 4 });

Deno.test(
  needing(["chromium"], {
    name: "a fresh temporary profile per session: the login is gone in the next one",
  }, async () => {
    const server = site();
    const browser = browserUnderTest(browserConfig());
    try {
      await call(browser.tool, { action: "open", url: `${server.origin}/login` }, oneCall());
      const next = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/account` },
        oneCall(),
      );
      assert.match(next.text, /Cookie: none/);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "browser.profile keeps the login between sessions, in the data folder",
  }, async () => {
    const server = site();
    const dataDir = Deno.makeTempDirSync({ prefix: "radar-browser-profile-" });
    const browser = browserUnderTest(
      browserConfig((config) => config.browser.profile = "shopping"),
      { dataDir },
    );
    try {
      await call(browser.tool, { action: "open", url: `${server.origin}/login` }, oneCall());
      const next = await call(
        browser.tool,
        { action: "open", url: `${server.origin}/account` },
        oneCall(),
      );
      assert.match(next.text, /Cookie: session=abc123/);
      const folder = join(dataDir, "browser-profiles", "shopping");
      assert.ok(Deno.statSync(folder).isDirectory);
      assert.equal(Deno.statSync(folder).mode! & 0o077, 0, "owner-only");
    } finally {
      await browser.close();
      await server.close();
      Deno.removeSync(dataDir, { recursive: true });
    }
  }),
);
