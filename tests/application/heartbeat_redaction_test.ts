/**
 * Event text reaches the models masked with the secrets known when the request is built: an event
 * queued before Radar read a password (password_cmd, run later) quotes it in its summary and
 * detail, yet neither the fast model's triage request nor the main heartbeat request carries it,
 * and an earlier heartbeat turn that quoted it before it was known is masked when replayed.
 * Checked on what two fake LLM servers received over real HTTP.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/adapters/clock.ts";
import { readPassword } from "../../src/adapters/os/account_secrets.ts";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import {
  secretMask as mask,
  sentText as sent,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";

Deno.test("a secret read after an event was queued is masked in the triage and heartbeat requests", async () => {
  const secret = "Hb-Secret-5521-late";
  const fast = FakeLlmServer.start();
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  // The main model is the home's server (RADAR_LLM_BASE_URL), the fast one a second server.
  const yaml = `radar:\n  timezone: UTC\nheartbeat:\n  quiet_hours: null\nllm:\n` +
    `  model: big\n  retries: 0\n  models:\n    fast:\n      base_url: ${fast.url}\n` +
    `      model: tiny\n`;
  try {
    await withFakeLlmRadar(
      { prefix: "radar-heartbeat-redaction-", yaml, clock },
      async (radar, { server: main }) => {
        // First heartbeat: the secret is not known yet, so nothing can mask it (it is sent as is).
        radar.queue.enqueue({
          source: "watcher ~/Downloads",
          kind: "new_file_detected",
          summary: `vault-${secret}.txt`,
        }, clock.now());
        fast.reply(ollamaText("YES"));
        main.reply(ollamaText("Noted the new file."));
        const first = await radar.heartbeat.tick({ trigger: "schedule" });
        assert.equal(first.outcome, "ran", first.reason);
        assert.ok(sent(main).includes(secret), "before it is known the secret cannot be masked");

        // Queued while the secret is still unknown; the secret becomes known before the next tick.
        clock.advance(15 * 60_000);
        radar.queue.enqueue({
          source: "check backup",
          kind: "check_failed",
          summary: `login as alice with ${secret} refused`,
          detail: `stderr:\n  auth failed for password ${secret}\n  retrying`,
        }, clock.now());
        const read = await readPassword(
          { password_cmd: `echo ${secret}`, password_env: "" },
          "home",
          {
            env: {},
            timeoutMs: 5000,
            secrets: radar.secrets,
          },
        );
        assert.equal(read, secret);

        const mainBefore = main.chatRequests.length;
        const fastBefore = fast.chatRequests.length;
        fast.reply(ollamaText("YES"));
        main.reply(ollamaText("The backup check failed."));
        const second = await radar.heartbeat.tick({ trigger: "schedule" });
        assert.equal(second.outcome, "ran", second.reason);
        assert.equal(second.triage?.verdict, "attention");
        assert.equal(fast.chatRequests.length, fastBefore + 1, "the triage was asked");
        assert.equal(main.chatRequests.length, mainBefore + 1, "the main model was asked");

        const triage = sent(fast, fastBefore);
        assert.ok(triage.includes(`login as alice with ${mask} refused`), triage);
        assert.ok(triage.includes(`auth failed for password ${mask}`), triage);
        assert.ok(!triage.includes(secret), "the triage request never holds the secret");

        const heartbeat = sent(main, mainBefore);
        assert.ok(heartbeat.includes(`login as alice with ${mask} refused`), heartbeat);
        assert.ok(heartbeat.includes(`auth failed for password ${mask}`), heartbeat);
        assert.ok(heartbeat.includes(`vault-${mask}.txt`), "the earlier turn is replayed, masked");
        assert.ok(!heartbeat.includes(secret), "the heartbeat request never holds the secret");
        assert.ok(!second.message?.includes(secret), "nor the message the run reports");
      },
    );
  } finally {
    await fast.close();
  }
});
