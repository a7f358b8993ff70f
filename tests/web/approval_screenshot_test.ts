/**
 * A browser submission's approval on the dashboard: the card shows the summary (fields as people
 * read them, the password masked) instead of the raw arguments, and the filled page's screenshot
 * from its own route (PNG, logged in only, never cached); an approval without one has no picture.
 */
import assert from "node:assert/strict";
import { createApp } from "../../web/app.tsx";
import { sessionCookieName, sessionValue } from "../../web/middleware/auth.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

Deno.test("a submission's approval shows its summary and screenshot, not the PIN", async () => {
  await withTestDaemon({ now: "2026-11-27T03:00:00Z" }, async ({ runtime }) => {
    const ask = (summary?: string, screenshot?: Uint8Array) =>
      runtime.away.approvals.request({
        tool: "browser",
        arguments: JSON.stringify({
          action: "submit",
          url: "https://library.example/renew",
          values: { 'input[name="card"]': "2231 8841", 'input[name="pin"]': "4411" },
          ref: "form button",
        }),
        kind: "task",
        reasons: ["submitting on library.example needs your yes"],
        tainted: [],
        untrustedSources: ["tool browser"],
        privateSources: [],
        destinations: [],
        namedDestinations: [],
        summary,
        screenshot,
      });
    const withPicture = await ask(
      'Submit on https://library.example/renew (clicking "Renew all")\n  fields:\n' +
        "    Card number: 2231 8841\n    PIN: ••••••",
      png,
    );
    const plain = await ask();
    const deps = await webDependenciesFromRuntime(runtime, { env: {} });
    const app = createApp(deps);
    const cookie = `${sessionCookieName}=${await sessionValue(deps.authToken)}`;
    const get = (path: string) => app.request(path, { headers: { Cookie: cookie } });

    const page = await (await get(`/approvals/${withPicture.id}`)).text();
    assert.match(page, /Card number: 2231 8841/);
    assert.doesNotMatch(page, /4411/, "the PIN is not on the page");
    assert.match(page, new RegExp(`<img[^>]+src="/approvals/${withPicture.id}/screenshot\\.png"`));

    const picture = await get(`/approvals/${withPicture.id}/screenshot.png`);
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get("content-type"), "image/png");
    assert.match(picture.headers.get("cache-control") ?? "", /no-store/);
    assert.deepEqual(new Uint8Array(await picture.arrayBuffer()), png);

    const anonymous = await app.request(`/approvals/${withPicture.id}/screenshot.png`);
    assert.notEqual(anonymous.status, 200, "not without a login");
    await anonymous.body?.cancel();

    const none = await get(`/approvals/${plain.id}/screenshot.png`);
    assert.equal(none.status, 404);
    await none.body?.cancel();
    assert.doesNotMatch(await (await get(`/approvals/${plain.id}`)).text(), /<img/);
  });
});
