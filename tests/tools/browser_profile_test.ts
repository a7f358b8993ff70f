/**
 * Profiles: by default every session starts with a fresh temporary profile (a login does not
 * outlive it); `browser.profile` names one in the data folder that keeps cookies between sessions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { needing } from "../helpers/system_parts.ts";
import { browserConfig, withBrowserPages } from "../helpers/browser_pages.ts";
import { askContext, call } from "./tool_harness.ts";

const site = {
  "/login": () =>
    new Response("<p>Logged in</p>", {
      headers: {
        "content-type": "text/html",
        "set-cookie": "session=abc123; Max-Age=3600; Path=/",
      },
    }),
  "/account": (request: Request) =>
    new Response(`<p>Cookie: ${request.headers.get("cookie") ?? "none"}</p>`, {
      headers: { "content-type": "text/html" },
    }),
};

/** Logs in, then opens the account page in a second session; what the site saw as its cookie. */
function loginThenAccount(dataDir: string, profile: string): Promise<string> {
  let account = "";
  return withBrowserPages(site, async ({ tool, server }) => {
    // Each call outside a run closes its browser: each call is a session of its own.
    const once = () => ({ ...askContext(), conversationId: 4 });
    await call(tool, { action: "open", url: `${server.origin}/login` }, once());
    account = (await call(tool, { action: "open", url: `${server.origin}/account` }, once())).text;
  }, { config: browserConfig((config) => config.browser.profile = profile), dataDir })
    .then(() => account);
}

Deno.test(needing(["chromium"], {
  name: "a fresh temporary profile per session: the login is gone in the next one",
}, async () => {
  assert.match(await loginThenAccount("/nonexistent", ""), /Cookie: none/);
}));

Deno.test(needing(["chromium"], {
  name: "browser.profile keeps the login between sessions, in the data folder, owner-only",
}, async () => {
  const dataDir = Deno.makeTempDirSync({ prefix: "radar-browser-profile-" });
  try {
    assert.match(await loginThenAccount(dataDir, "shopping"), /Cookie: session=abc123/);
    const folder = join(dataDir, "browser-profiles", "shopping");
    assert.ok(Deno.statSync(folder).isDirectory);
    assert.equal(Deno.statSync(folder).mode! & 0o077, 0);
  } finally {
    Deno.removeSync(dataDir, { recursive: true });
  }
}));
