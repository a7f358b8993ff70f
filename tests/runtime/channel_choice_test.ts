/**
 * With no chat channel configured, Radar loads no channel store (channel_choice.ts): notices go to
 * ntfy exactly as the router sends them, there is no channel status, pairing is refused as before,
 * and anything that reaches for the channel stores or owners fails with one line.
 */
import assert from "node:assert/strict";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

Deno.test("no chat channel configured: notices go to ntfy, no status, pairing refused, the stores fail closed", async () => {
  const ntfy = startFakeNtfy();
  try {
    const yaml = `radar:
  timezone: "UTC"
notifications:
  ntfy: { url: "${ntfy.url}", topic: "night" }
`;
    await withTestDaemon({ yaml }, async ({ services }) => {
      const { channels, notifier } = services;
      assert.equal(channels.configured(), false);
      assert.deepEqual(channels.status(), []);
      assert.equal(notifier.topic(), "night");
      const delivery = await notifier.send(
        { message: "The server is down" },
        AbortSignal.timeout(10_000),
      );
      assert.equal(delivery.sent, true);
      assert.deepEqual(ntfy.requests.map((request) => request.body), ["The server is down"]);
      assert.throws(
        () => channels.pair("telegram"),
        /^Error: telegram is not configured: add a channels\.telegram section first$/,
      );
      assert.throws(() => channels.stores.outbox, /no chat channel is configured/);
      assert.throws(() => channels.owners.of("telegram"), /no chat channel is configured/);
    });
  } finally {
    await ntfy.close();
  }
});
