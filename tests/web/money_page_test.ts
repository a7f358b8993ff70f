/**
 * /money on the real runtime: the month's report with server-drawn SVG charts, every statement
 * text escaped (payees are hostile), the strict CSP unchanged, and a category correction by form
 * (session and same-origin Origin required) remembered for the merchant's later transactions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../web/app.tsx";
import { contentSecurityPolicy } from "../../web/middleware/security_headers.ts";
import { sessionCookieName, sessionValue } from "../../web/middleware/auth.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { camt053 } from "../helpers/statement_fixtures.ts";
import { postForm } from "./web_fixture.ts";

const yaml = `radar:
  timezone: "UTC"
money:
  categorize_with_model: false
  rules:
    - { match: "rewe", category: groceries }
`;

const hostile = `Evil "><script>alert(1)</script><svg onload=alert(2)>`;

Deno.test("/money: SVG charts, escaped payees, the CSP as it is; a correction by form is learned", async () => {
  await withTestDaemon({ yaml, now: "2026-03-20T10:00:00Z" }, async ({ runtime, dir }) => {
    const write = (name: string, text: string) => {
      const path = join(dir, name);
      Deno.writeTextFileSync(path, text);
      return path;
    };
    await (await runtime.money()).import({
      path: write(
        "feb.xml",
        camt053([
          { date: "2026-02-03", amount: "-80.00", payee: "REWE Markt", id: "F1" },
        ], { statementId: "F" }),
      ),
    });
    await (await runtime.money()).import({
      path: write(
        "mar.xml",
        camt053([
          { date: "2026-03-02", amount: "-42.10", payee: "REWE Markt", id: "M1" },
          { date: "2026-03-05", amount: "-19.99", payee: hostile, id: "M2" },
          { date: "2026-03-06", amount: "2000.00", payee: "ACME Payroll", id: "M3" },
        ], { statementId: "M" }),
      ),
    });
    const deps = await webDependenciesFromRuntime(runtime, { env: {} });
    const app = createApp(deps);
    const cookie = `${sessionCookieName}=${await sessionValue(deps.authToken)}`;
    const get = (path: string) => app.request(path, { headers: { Cookie: cookie } });

    const response = await get("/money");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-security-policy"), contentSecurityPolicy);
    const html = await response.text();
    assert.match(html, /<h1>Money 2026-03<\/h1>/);
    assert.match(html, /<a href="\/money" class="active">Money<\/a>/);
    assert.match(html, /<svg class="money-chart" viewBox="0 0 640 \d+"[^>]*role="img"/);
    assert.match(html, /<g class="money-row" data-category="groceries">/);
    assert.match(html, /<g data-month="2026-02">/);
    assert.ok(!html.includes("<script>alert"), "a payee never becomes markup");
    assert.ok(!html.includes("<svg onload"));
    assert.match(html, /Evil &quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.ok(!/ style=/.test(html), "no inline styles (the CSP allows none)");
    assert.ok(!/<script(?! src="\/static\/)/.test(html), "no inline script");
    assert.match(html, /EUR: spent 62\.09 EUR, received 2,000\.00 EUR/);
    assert.match(
      html,
      /<tr data-category="groceries"><td>groceries<\/td><td class="number">42\.10 EUR<\/td>/,
    );

    const hostileRow = (await runtime.money()).transactions({ limit: 10 }).find((row) =>
      row.payee === hostile
    )!;
    // Cross-site and anonymous POSTs change nothing.
    const refused = [
      await app.request(
        `/money/transactions/${hostileRow.id}/category`,
        postForm({ category: "shopping" }, { Cookie: cookie, Origin: "https://evil.example" }),
      ),
      await app.request(
        `/money/transactions/${hostileRow.id}/category`,
        postForm({ category: "shopping" }),
      ),
    ];
    assert.deepEqual(refused.map((answer) => answer.status), [403, 401]);
    assert.equal((await runtime.money()).get(hostileRow.id)?.category, undefined);

    const saved = await app.request(
      `/money/transactions/${hostileRow.id}/category`,
      postForm({ category: "shopping", month: "2026-03" }, { Cookie: cookie }),
    );
    assert.equal(saved.status, 303);
    assert.equal(
      saved.headers.get("location"),
      `/money?month=2026-03#transaction-${hostileRow.id}`,
    );
    assert.deepEqual(
      [
        (await runtime.money()).get(hostileRow.id)?.category,
        (await runtime.money()).get(hostileRow.id)?.categorySource,
      ],
      ["shopping", "user"],
    );
    assert.ok(
      (await runtime.money()).categories().find((category) => category.name === "shopping")?.learned
        .length,
    );
    const unknown = await app.request(
      `/money/transactions/${hostileRow.id}/category`,
      postForm({ category: "<b>yachts</b>", month: "2026-03" }, { Cookie: cookie }),
    );
    assert.equal(unknown.status, 422);
    const unknownHtml = await unknown.text();
    assert.match(unknownHtml, /Unknown category &quot;&lt;b&gt;yachts&lt;\/b&gt;&quot;/);

    const february = await (await get("/money?month=2026-02&uncategorized=1")).text();
    assert.match(february, /<h1>Money 2026-02<\/h1>/);
    assert.match(february, /No transactions\./, "February's one transaction has a category");
    const empty = await (await get("/money?month=2025-01")).text();
    assert.match(empty, /No transactions in 2025-01/);
    const bogus = await (await get("/money?month=<x>")).text();
    assert.match(bogus, /<h1>Money 2026-03<\/h1>/, "a bad month falls back to this one");
  });
});
