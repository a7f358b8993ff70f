/**
 * A monitored page that fails after its headers (it stalls, or the connection breaks mid-body)
 * is an ordinary failed check: "timed out after 1 s", counted once and backed off. Before, the
 * error escaped the checker: `radar monitor check-now` printed "unexpected failure: The
 * operation was aborted due to timeout" and the daemon flagged the page as an internal error.
 */
import assert from "node:assert/strict";
import { withTestDaemon } from "../helpers/test_radar.ts";

const yaml = `radar:
  timezone: "UTC"
heartbeat:
  quiet_hours: null
tools:
  fetch_url:
    allow_private: true
    timeout_seconds: 1
`;

/**
 * A raw HTTP/1.1 server: `/stall` sends its headers and then nothing; any other path promises
 * 100,000 bytes, sends a few and closes the connection.
 */
function hostilePages(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open: Deno.Conn[] = [];
  const encoder = new TextEncoder();
  (async () => {
    for await (const connection of listener) {
      open.push(connection);
      const buffer = new Uint8Array(4096);
      const read = await connection.read(buffer).catch(() => null);
      const request = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
      const head = "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n";
      if (/^GET \S*\/stall /.test(request)) {
        await connection.write(encoder.encode(`${head}transfer-encoding: chunked\r\n\r\n`));
      } else {
        await connection.write(encoder.encode(`${head}content-length: 100000\r\n\r\n<p>half`));
        connection.close();
      }
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      listener.close();
      for (const connection of open) {
        try {
          connection.close();
        } catch { /* already closed */ }
      }
    },
  };
}

Deno.test("a page that stalls or breaks after its headers is a failed check, not a crash", async () => {
  const server = hostilePages();
  const base = `http://127.0.0.1:${server.port}`;
  try {
    await withTestDaemon({ yaml }, async (daemon) => {
      const { monitors, monitorChecker } = daemon.services;
      const stall = await monitors.add({ url: `${base}/stall`, every: "1h" });
      const broken = await monitors.add({ url: `${base}/broken`, every: "1h" });
      assert.ok(!("error" in stall) && !("error" in broken));

      const checked = await monitorChecker.check(stall);
      assert.equal(checked.outcome, "failed");
      assert.equal(checked.detail, "timed out after 1 s");
      const reset = await monitorChecker.check(broken);
      assert.equal(reset.outcome, "failed");
      assert.doesNotMatch(reset.detail ?? "", /internal error/);

      // On the schedule: counted as one ordinary failure each, not flagged as broken.
      daemon.clock.advance(2 * 60 * 60_000);
      await monitorChecker.run(daemon.clock.now(), new AbortController().signal);
      for (const monitor of monitors.list()) {
        assert.equal(monitor.failures, 2, JSON.stringify(monitor));
        assert.doesNotMatch(monitor.lastError ?? "", /internal error/);
      }
    });
  } finally {
    server.close();
  }
});
