/**
 * What a standing grant for the browser covers (issue 31): a submission only with every request
 * it sends known, each matching the grant's target pattern — or, for a grant that names no target
 * (made before submissions recorded theirs), each going to the page's own origin. `radar grants
 * list` and the dashboard say so where a grant is narrower than its patterns look.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { grantCheck } from "../../src/away/grant_rules.ts";
import { grantPathPolicy } from "../../src/away/grant_paths.ts";
import { StandingGrants } from "../../src/away/standing_grants.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteGrantStore } from "../../src/adapters/sqlite/grant_store.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { browserTool } from "../../src/tools/browser.ts";
import type { BrowserSessions } from "../../src/tools/browser_sessions.ts";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { needing } from "../helpers/system_parts.ts";
import { GrantTable } from "../../web/views/approvals.tsx";

/** The browser tool as grants see it (its declarations; no browser is started). */
const browser = browserTool({
  sessions: {} as BrowserSessions,
  check: () => Promise.resolve({ addresses: [] }),
  callMs: () => 1000,
});

const page = "https://library.example/renew";

/** A held submission as the browser stores and asks about it: its page and what it sends. */
function submission(...urls: string[]): Record<string, unknown> {
  return {
    action: "submit",
    url: page,
    values: { "#card": "2231" },
    ref: "#renew",
    target: urls[0],
    sends: urls.map((url) => ({ method: "POST", url, fields: [{ name: "card", value: "2231" }] })),
  };
}

async function withGrants(
  work: (parts: ReturnType<typeof grantParts>) => void | Promise<void>,
) {
  const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-browser-grants-" }));
  const db = openDatabase(":memory:");
  try {
    await work(grantParts(home, db));
  } finally {
    db.close();
    Deno.removeSync(home, { recursive: true });
  }
}

function grantParts(home: string, db: ReturnType<typeof openDatabase>) {
  const store = new SqliteGrantStore(db);
  const clock = new ManualClock(new Date("2026-11-24T03:00:00Z"));
  const paths = grantPathPolicy({
    config: defaultConfig(),
    dataDir: join(home, "data"),
    env: { HOME: home },
    cwd: home,
  });
  const options = { store, configured: () => [], paths, clock };
  const grants = new StandingGrants({
    ...options,
    tool: (name) => Promise.resolve(name === "browser" ? browser : undefined),
  });
  return { store, clock, check: grantCheck(options), grants };
}

Deno.test("a browser grant without a target covers a form only while it sends to the page's own origin", async () => {
  await withGrants(async ({ store, clock, check, grants }) => {
    // A grant made before submissions recorded their target: the page's site only.
    const old = store.add({
      tool: "browser",
      arguments: { action: "submit", url: "https://library.example/**" },
      note: "renewals",
    }, clock.now());
    assert.equal(check(browser, submission("https://library.example/renewed"))?.id, old.id);
    assert.equal(check(browser, submission("https://evil.example/collect")), undefined);
    assert.equal(
      check(browser, submission("https://library.example:8443/renewed")),
      undefined,
      "another port is another origin",
    );
    assert.equal(
      check(browser, submission("https://library.example/renewed", "https://evil.example/c")),
      undefined,
      "a second request to another site",
    );
    // The model's own claim of where a form goes (no requests known) is no submission to grant.
    const claimed = { action: "submit", url: page, ref: "#renew", target: page };
    assert.equal(check(browser, claimed), undefined);

    // The list says where it covers less than its patterns look; so does the dashboard.
    const [listed] = await grants.list();
    assert.deepEqual(listed.limits, [
      "no target pattern: it covers a form only while everything the form sends goes to the " +
      "page's own origin (scheme, host and port)",
    ]);
    const table = await GrantTable({ grants: [listed], timeZone: "UTC" }).toString();
    assert.match(table, /only: no target pattern: it covers a form only while everything/);
  });
});

Deno.test("a browser grant with a target covers a form only while every request it sends matches it", async () => {
  await withGrants(async ({ store, clock, check, grants }) => {
    const named = store.add({
      tool: "browser",
      arguments: {
        action: "submit",
        url: "https://library.example/**",
        target: "https://api.library.example/**",
      },
      note: "",
    }, clock.now());
    const api = "https://api.library.example/renew";
    assert.equal(check(browser, submission(api))?.id, named.id);
    assert.equal(check(browser, submission(api, "https://evil.example/c")), undefined);
    assert.equal(check(browser, submission("https://library.example/renewed")), undefined);
    // Opening a page is not a submission: the target says nothing about it.
    const opens = store.add({
      tool: "browser",
      arguments: { action: "open", url: "https://library.example/**" },
      note: "",
    }, clock.now());
    assert.equal(check(browser, { action: "open", url: page })?.id, opens.id);
    assert.deepEqual((await grants.list()).map((grant) => grant.limits), [[], []]);
  });
});

Deno.test(needing(["chromium"], {
  name: "radar grants list says when a browser grant is narrower than it looks",
  async fn() {
    const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-grants-list-" }));
    try {
      Deno.writeTextFileSync(
        join(dir, "radar.yaml"),
        `grants:
  - tool: browser
    arguments: { action: submit, url: "https://library.example/**" }
    note: renewals
`,
      );
      const io = memoryIo({
        HOME: dir,
        RADAR_DATA_DIR: join(dir, "data"),
        RADAR_CONFIG: join(dir, "radar.yaml"),
        RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
      }, { cwd: dir });
      assert.equal(await runCli(["grants", "list"], io), 0, io.err.join(""));
      assert.equal(
        io.out.join(""),
        "config:1  browser action=submit url=https://library.example/**  (radar.yaml) — renewals\n" +
          "          only: no target pattern: it covers a form only while everything the form " +
          "sends goes to the page's own origin (scheme, host and port)\n",
      );
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
}));
