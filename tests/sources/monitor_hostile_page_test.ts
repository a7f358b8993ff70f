/**
 * A monitored page built to stall HTML parsers (200 KB of unclosed `<div>`; node-html-parser took
 * about 28 s on it inside the daemon's event loop) is a failed check at the check's deadline when
 * a CSS selector must parse it; without a selector the hand-written HTML-to-text reads it.
 */
import assert from "node:assert/strict";
import { withTestDaemon } from "../helpers/test_radar.ts";
import { hostileHtml } from "../helpers/hostile_html.ts";

const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
tools:
  fetch_url:
    allow_private: true
    timeout_seconds: 1
`;

Deno.test("a monitored page that stalls the HTML parser fails at the check's deadline", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(hostileHtml('<p id="price">Price: 5 EUR</p>'), {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/shop`;
  try {
    await withTestDaemon({ yaml }, async (daemon) => {
      const { monitors, monitorChecker } = daemon.services;
      const picked = await monitors.add({ url, selector: "#price", every: "1h" });
      const whole = await monitors.add({ url, every: "1h" });
      assert.ok(!("error" in picked) && !("error" in whole));

      const stalled = await monitorChecker.check(picked);
      assert.equal(stalled.outcome, "failed", JSON.stringify(stalled));
      assert.equal(stalled.detail, "timed out after 1 s reading its HTML (stopped)");

      const read = await monitorChecker.check(whole);
      assert.notEqual(read.outcome, "failed", JSON.stringify(read));
    });
  } finally {
    await server.shutdown();
  }
});
