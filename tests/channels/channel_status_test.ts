/**
 * One failing channel does not stop the others, and `radar status` and the dashboard show each
 * channel: connected or failing, the last message in and out, the last error (secrets masked).
 */
import assert from "node:assert/strict";
import { ollamaText } from "../fakes/fake_llm_server.ts";
import { FakeMatrixServer } from "../fakes/fake_matrix_server.ts";
import { freePort } from "../fakes/dovecot_server.ts";
import { until } from "../helpers/until.ts";
import { channelStatusLines } from "../../src/channels/channel_status.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { withChannelHome } from "./channel_home.ts";

const owner = "@olive:example.test";
const token = "4242:NEVER-SHOWN-token-abcdefghijklmnop";

Deno.test("a channel that cannot connect fails alone; status and the dashboard show each channel", async () => {
  const matrix = new FakeMatrixServer();
  const room = matrix.joinedRoom("!dm:example.test");
  const deadPort = freePort();
  try {
    await withChannelHome(
      `channels:
  telegram:
    token: "${token}"
    api_root: "http://127.0.0.1:${deadPort}"
    allowed_users: [1001]
  matrix:
    homeserver: "${matrix.url}"
    user_id: "${matrix.botUserId}"
    access_token: "${matrix.accessToken}"
    allowed_users: ["${owner}"]
    poll_seconds: 1
notifications:
  channels: [matrix]
`,
      async ({ radar, llm, env }) => {
        await until("telegram to fail and matrix to connect", () => {
          const [telegram, matrixStatus] = radar.channels.status();
          return telegram.state === "failing" && matrixStatus.state === "connected";
        });
        llm.reply(ollamaText("Still here."));
        matrix.userSays(owner, room, "Are you there?");
        await matrix.waitForBot((event) => event.content?.body === "Still here.");
        await until(
          "the answer's receipt",
          () => radar.channels.status()[1].lastSentAt !== undefined,
        );

        const lines = channelStatusLines(radar.channels.status(), "UTC");
        assert.equal(lines[0], "channels:");
        assert.equal(lines[1], "  telegram: failing; 1 owner");
        assert.match(
          lines.find((line) => line.includes("last error"))!,
          /Telegram getUpdates failed/,
        );
        assert.ok(lines.includes("  matrix: connected; 1 owner; gets notices"), lines.join("\n"));
        assert.ok(!lines.join("\n").includes(token), "the token is never shown");

        const deps = await webDependenciesFromRuntime(radar, { env });
        const html = await (await createApp(deps).request("/", {
          headers: { Authorization: `Bearer ${deps.authToken}` },
        })).text();
        const card = html.slice(html.indexOf('id="channels"'));
        assert.match(
          card,
          /<li data-channel="telegram" data-state="failing"><strong>telegram<\/strong> <span class="bad">failing<\/span>/,
        );
        assert.match(
          card,
          /<li data-channel="matrix" data-state="connected"><strong>matrix<\/strong> <span class="good">connected<\/span><span class="muted"> · 1 owner · last in \d{4}-\d\d-\d\d \d\d:\d\d UTC · last out \d{4}/,
        );
        assert.ok(!html.includes(token));
      },
    );
  } finally {
    await matrix.close();
  }
});

Deno.test("a notice routed to a chat channel is queued once per key and delivered with a receipt", async () => {
  const matrix = new FakeMatrixServer();
  const room = matrix.joinedRoom("!dm:example.test");
  try {
    await withChannelHome(
      `channels:
  matrix:
    homeserver: "${matrix.url}"
    user_id: "${matrix.botUserId}"
    access_token: "${matrix.accessToken}"
    allowed_users: ["${owner}"]
    poll_seconds: 1
notifications:
  channels: [ntfy, matrix]
`,
      async ({ radar, llm }) => {
        await until("the first sync", () => radar.channels.status()[0].state === "connected");
        // No room with the owner yet: the notice cannot go anywhere, and says why.
        const early = await radar.notifier.send(
          { message: "too early", key: "n:1" },
          AbortSignal.timeout(5000),
        );
        assert.equal(early.sent, false);
        assert.match((early as { error: string }).error, /No Matrix room with the owner yet/);

        llm.reply(ollamaText("Hello."));
        matrix.userSays(owner, room, "hi");
        await matrix.waitForBot((event) => event.content?.body === "Hello.");
        const notice = { title: "Reminder", message: "Call the bank", key: "task:1:notify#0" };
        const first = await radar.notifier.send(notice, AbortSignal.timeout(5000));
        assert.deepEqual(first, { sent: true, topic: "matrix", status: 200, to: "matrix" });
        // Sent again under the same key (a retry): queued once.
        await radar.notifier.send(notice, AbortSignal.timeout(5000));
        await matrix.waitForBot((event) => event.content?.body === "Reminder\nCall the bank");
        await new Promise((resolve) => setTimeout(resolve, 300));
        const reminders = matrix.botEvents.filter((stored) =>
          /Call the bank/.test(stored.event.content.body)
        );
        assert.equal(reminders.length, 1);
        const receipt = radar.channels.stores.outbox.list(10).find((row) =>
          row.purpose === "notice"
        )!;
        assert.equal(receipt.state, "sent");
        assert.equal(receipt.externalId, reminders[0].event.event_id);
      },
    );
  } finally {
    await matrix.close();
  }
});
