/**
 * Browser submissions in runs nobody watches, through the real loop, the stand-in model over
 * HTTP and real Chromium against local pages: the submit becomes one pending approval (issue 22's)
 * holding the self-contained submission, its fields as people read them (the PIN masked) and a
 * screenshot; nothing reaches the site until the yes, which submits it once in a fresh browser;
 * "Always allow" makes a grant for the named site's form, so the next run submits there
 * unattended, while another site still asks — and a denied one sends nothing. From the phone: the
 * ntfy notice shows the submission (not the PIN) and points to the screenshot; its Approve button
 * submits it.
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
import { withAwayHome } from "../helpers/away_home.ts";

const browserSection =
  `browser:\n  executable: "${chromiumPath}"\n  allowed_hosts: ["127.0.0.1", "127.0.0.3"]\n`;
const browserYaml = `llm:\n  retries: 0\nplugins:\n  enabled: false\n${browserSection}`;

const renewPage = `<!doctype html><html><head><title>Renew loans</title></head><body>
<h1>Renew your loans</h1>
<form method="post" action="/renewed">
  <label>Card number <input name="card" required></label>
  <label>PIN <input type="password" name="pin" required></label>
  <button type="submit">Renew all</button>
</form></body></html>`;

/** A library site on `hostname` that says what it renewed. */
function library(hostname: string): PageServer {
  return servePages({
    "/renew": renewPage,
    "/renewed": (_request, body) =>
      new Response(`<p>Renewed 3 books for card ${new URLSearchParams(body).get("card")}.</p>`, {
        headers: { "content-type": "text/html" },
      }),
  }, hostname);
}

const posts = (seen: SeenRequest[]) => seen.filter((request) => request.method !== "GET");

/** One unattended run (like `radar ask` from a script): open, fill, click "Renew all". */
Deno.test(
  needing(["chromium"], {
    name:
      "unattended, a submit waits as an approval with its fields and a screenshot; the yes submits it once",
  }, async () => {
    const site = library("127.0.0.1");
    await withFakeLlmRadar(
      { prefix: "radar-browser-approval-", usersNetwork: testUsersNetwork, yaml: browserYaml },
      async (radar, { server }) => {
        const result = await renewUnattended(radar, server, site);
        const click = result.toolExecutions[2];
        assert.equal(click.result.outcome, "refused", click.result.text);
        assert.match(click.result.text, /^Not done yet: it needs the user's yes \(approval #1/);
        assert.deepEqual(posts(site.seen), [], "nothing was submitted without a yes");

        const [pending, ...others] = radar.away.approvals.list({ pendingOnly: true });
        assert.deepEqual(others, []);
        assert.equal(click.result.approvalId, pending.id);
        assert.equal(pending.tool, "browser");
        assert.deepEqual(pending.reasons, [`submitting on 127.0.0.1:${site.port} needs your yes`]);
        // What the user decides on: the page, the fields as people read them, the PIN masked.
        assert.match(pending.summary ?? "", /^Submit on http:\/\/127\.0\.0\.1:\d+\/renew/);
        assert.match(pending.summary ?? "", /Card number: 2231 8841/);
        assert.match(pending.summary ?? "", /PIN: ••••••/);
        assert.doesNotMatch(pending.summary ?? "", /4411/);
        // What runs on a yes: one self-contained submission (the page, fields by selector, control).
        const stored = parseArguments(pending.arguments);
        assert.equal(stored.action, "submit");
        assert.equal(stored.url, `${site.origin}/renew`);
        assert.deepEqual(Object.values(stored.values as object), ["2231 8841", "4411"]);
        assert.equal(pending.hasScreenshot, true);
        const png = radar.away.approvals.screenshot(pending.id)!;
        assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "a PNG");
        assert.equal(
          (await radar.agentStack()).browser.openSessions(),
          0,
          "the run's browser ended with it",
        );

        const approved = await radar.away.approvals.approve(pending.id, "cli");
        assert.equal(approved.state, "done", approved.text);
        assert.match(approved.text, /^Submitted\./);
        assert.match(approved.text, /Renewed 3 books for card 2231 8841\./);
        const sent = posts(site.seen);
        assert.equal(sent.length, 1);
        const body = new URLSearchParams(sent[0].body);
        assert.equal(body.get("card"), "2231 8841");
        assert.equal(body.get("pin"), "4411");

        const again = await radar.away.approvals.approve(pending.id, "cli");
        assert.equal(again.state, "not_pending");
        assert.equal(posts(site.seen).length, 1, "approved once, submitted once");
        assert.equal(
          (await radar.agentStack()).browser.openSessions(),
          0,
          "the approval's browser closed after it",
        );
        assert.deepEqual(await browserProcessesAfter(15_000), []);
      },
    );
    await site.close();
  }),
);

Deno.test(
  needing(["chromium"], {
    name:
      "Always allow makes a grant for the named site's form: the next run submits there unattended, another site still asks",
  }, async () => {
    const site = library("127.0.0.1");
    const other = library("127.0.0.3");
    await withFakeLlmRadar(
      { prefix: "radar-browser-grant-", usersNetwork: testUsersNetwork, yaml: browserYaml },
      async (radar, { server }) => {
        await renewUnattended(radar, server, site);
        const [first] = radar.away.approvals.list({ pendingOnly: true });
        // The suggestion is the site's forms sending to the site: the action, the page's site and
        // the target's, not the control's selector.
        const suggested = await radar.away.approvals.suggest(first);
        assert.deepEqual(suggested, {
          action: "submit",
          url: `${site.origin}/**`,
          target: `${site.origin}/**`,
        });
        const allowed = await radar.away.approvals.alwaysAllow(first.id, "dashboard");
        assert.equal(allowed.state, "done", allowed.text);
        assert.equal(posts(site.seen).length, 1);

        // The next run on the granted site submits at once: no approval, one more post.
        const granted = await renewUnattended(radar, server, site);
        const click = granted.toolExecutions[2];
        assert.equal(click.result.outcome, "ok", click.result.text);
        assert.match(click.result.text, /^Submitted\./);
        assert.equal(click.result.approvalId, undefined);
        assert.equal(posts(site.seen).length, 2);
        assert.deepEqual(radar.away.approvals.list({ pendingOnly: true }), []);
        const [grant] = await radar.away.grants.list();
        assert.equal(grant.uses, 1);

        // Another site's form still asks; denied, nothing reaches it.
        const elsewhere = await renewUnattended(radar, server, other);
        const asked = elsewhere.toolExecutions[2];
        assert.equal(asked.result.outcome, "refused", asked.result.text);
        const [pending] = radar.away.approvals.list({ pendingOnly: true });
        assert.equal(asked.result.approvalId, pending.id);
        assert.match(pending.summary ?? "", /^Submit on http:\/\/127\.0\.0\.3:\d+\/renew/);
        radar.away.approvals.deny(pending.id, "cli");
        assert.deepEqual(posts(other.seen), []);
        assert.equal((await radar.away.approvals.approve(pending.id, "cli")).state, "not_pending");
        assert.deepEqual(posts(other.seen), [], "a denied submission never runs");
        assert.deepEqual(await browserProcessesAfter(15_000), []);
      },
    );
    await site.close();
    await other.close();
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "from the phone: the notice names the tool and why, no field; Approve submits it",
  }, async () => {
    const site = library("127.0.0.1");
    await withAwayHome({ yaml: browserSection, usersNetwork: testUsersNetwork }, async (home) => {
      await renewUnattended(home.radar, home.llm, site);
      const [notice, ...more] = home.notices();
      assert.deepEqual(more, []);
      assert.equal(notice.title, "Radar asks: browser (#1)");
      const message = String(notice.message);
      // The submission, its fields and screenshot are on the approval's page, after login.
      assert.match(message, /^browser: browser asks before it does this\.\n/);
      assert.match(message, /The whole call is on the approval's page/);
      assert.doesNotMatch(message, /2231|8841|4411/, "no field goes to ntfy");
      assert.equal(notice.click, `${home.base}/approvals/1`);
      const [approve] = (notice.actions as Array<Record<string, unknown>>).map((action) =>
        String(action.url)
      );
      assert.deepEqual(posts(site.seen), []);
      // Approve opens its page: the whole submission there, to a browser logged in.
      const pressed = await home.approveOnPhone(approve);
      assert.match(pressed.page, /2231/);
      assert.equal(pressed.status, 200, pressed.text);
      assert.equal(
        pressed.text,
        "Done (#1): It ran as you approved; the result is on the approval's page.",
      );
      assert.equal(posts(site.seen).length, 1);
      assert.equal(home.radar.away.approvals.show(1).state, "done");
      assert.deepEqual(await browserProcessesAfter(15_000), []);
    });
    await site.close();
  }),
);
