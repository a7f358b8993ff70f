/**
 * Events a hook set aside (3 blocked heartbeats) on the dashboard home: count, last reason and
 * the events' summaries, escaped, and a "Put back in the queue" form that needs the session and a
 * same-origin Origin like every other state change. Real heartbeats blocked by a real config rule.
 */
import assert from "node:assert/strict";
import { blockedHeartbeatLimit } from "../../src/application/heartbeat_commit.ts";
import { createApp } from "../../web/app.tsx";
import { sessionCookieName, sessionValue } from "../../web/middleware/auth.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { postForm } from "./web_fixture.ts";

const yaml = `radar:
  timezone: "UTC"
hooks:
  rules:
    - name: no_payroll
      type: block_message_pattern
      patterns: ["payroll"]
      message: "payroll <em>stays</em> private"
`;

Deno.test("the home page shows set-aside events escaped, and its button puts them back in the queue", async () => {
  await withTestDaemon({ yaml }, async ({ services, runtime, clock }) => {
    for (let index = 1; index <= 12; index++) {
      services.queue.enqueue({
        source: "mail work",
        kind: "new_mail",
        summary: `payroll ${index} <script>alert(${index})</script><img src=x onerror=alert(1)>`,
      }, clock.now());
    }
    const deps = await webDependenciesFromRuntime(runtime, { env: {} });
    const app = createApp(deps);
    const cookie = `${sessionCookieName}=${await sessionValue(deps.authToken)}`;
    const home = async (path = "/") =>
      await (await app.request(path, { headers: { Cookie: cookie } })).text();
    assert.doesNotMatch(await home(), /id="set-aside"/, "nothing set aside: no card");

    for (let attempt = 0; attempt < blockedHeartbeatLimit; attempt++) {
      await services.heartbeat.tick({ trigger: "schedule" });
      clock.advance(15 * 60_000);
    }
    assert.equal(services.queue.setAside().count, 12);
    const html = await home();
    const card = html.slice(
      html.indexOf('id="set-aside"'),
      html.indexOf("</section>", html.indexOf('id="set-aside"')),
    );
    assert.match(card, /<h2>Set aside by a hook<\/h2>/);
    assert.match(card, /<strong>12<\/strong> events were/);
    assert.match(card, /<dd class="bad">payroll &lt;em&gt;stays&lt;\/em&gt; private<\/dd>/);
    assert.equal(card.match(/<li data-event=/g)?.length, 10, "the newest ten listed");
    assert.match(
      card,
      /payroll 12 &lt;script&gt;alert\(12\)&lt;\/script&gt;&lt;img src=x onerror=alert\(1\)&gt;/,
    );
    assert.doesNotMatch(card, /payroll 2 /, "the oldest are counted, not listed");
    assert.match(card, /and 2 more/);
    assert.match(
      card,
      /<form method="post" action="\/heartbeat\/requeue"><button type="submit">Put back in the queue<\/button><\/form>/,
    );
    assert.ok(!html.includes("<script>alert"), "no event markup reaches the page");
    assert.ok(!html.includes("<em>stays"), "nor the hook's");

    // A cross-site form, an Origin-less POST and an anonymous one change nothing.
    const refused = [
      await app.request(
        "/heartbeat/requeue",
        postForm({}, { Cookie: cookie, Origin: "https://evil.example" }),
      ),
      await app.request("/heartbeat/requeue", { method: "POST", headers: { Cookie: cookie } }),
      await app.request("/heartbeat/requeue", postForm({})),
    ];
    assert.deepEqual(refused.map((response) => response.status), [403, 403, 401]);
    assert.equal(services.queue.setAside().count, 12);
    assert.equal(services.queue.pendingCount(), 0);

    const response = await app.request("/heartbeat/requeue", postForm({}, { Cookie: cookie }));
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/?requeued=12");
    assert.equal(services.queue.setAside().count, 0);
    assert.equal(services.queue.pendingCount(), 12, "back in the queue for the next heartbeat");
    const after = await home("/?requeued=12");
    assert.match(after, /12 events are back in the queue/);
    assert.doesNotMatch(after, /id="set-aside"/, "the card is gone");
    assert.doesNotMatch(await home("/?requeued=<b>1</b>"), /back in the queue/, "only a number");
  });
});
