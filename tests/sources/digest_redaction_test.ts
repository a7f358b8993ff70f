/**
 * A digest never carries a secret out: the period's messages and event summaries reach the model
 * with every secret known now masked (a password read after start included; masked before each
 * line is cut, so no half of a secret is left), and the stored digest is masked too (a model
 * that quotes a secret anyway). Real runtime, real SQLite, real HTTP to the fake model server.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { ollamaText } from "../fakes/fake_llm_server.ts";
import {
  learnSecretFromEnv,
  noPluginsYaml,
  secretMask as mask,
  seedConversation,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";

Deno.test("a digest masks secrets in what the model is sent and in what is stored", async () => {
  const secret = "Zq7Vault-5521-late";
  await withFakeLlmRadar(
    { prefix: "radar-digest-redaction-", yaml: noPluginsYaml },
    async (radar, { server }) => {
      const day = new Date("2026-11-23T09:00:00Z");
      seedConversation(radar, [
        { role: "user", content: `The vault password is ${secret}, remember it` },
        // The secret straddles the 300-character cut of a line: masking after the cut would
        // leave its first half.
        { role: "assistant", content: `${"x".repeat(290)} ${secret} tail` },
      ], { at: day, title: "vault" });
      const db = openDatabase(radar.databasePath);
      try {
        new SqliteEventQueue(db).enqueue({
          source: "mail",
          kind: "new_mail",
          summary:
            `Login code mail: use ${secret} and https://u:hunter22@example.org/?token=abc123`,
        }, day);
      } finally {
        db.close();
      }
      // Read after start (password_env): from now on it is a secret.
      await learnSecretFromEnv(radar, "VAULT_PW", secret);
      server.reply(ollamaText(`- Stored the vault password ${secret}\n- A login code mail`));
      const digest = await radar.digests.write(
        "day",
        new Date("2026-11-23T00:00:00Z"),
        new Date("2026-11-24T00:00:00Z"),
      );

      assert.equal(server.chatRequests.length, 1);
      const sent = JSON.stringify(server.chatRequests[0].body);
      assert.ok(sent.includes("The vault password is ********, remember it"), sent);
      assert.ok(sent.includes(`Login code mail: use ${mask}`), sent);
      assert.ok(!sent.includes("hunter22") && !sent.includes("abc123"), "URL credentials masked");
      assert.ok(!sent.includes(secret.slice(0, 6)), `no part of the secret was sent: ${sent}`);

      assert.equal(digest.content, `- Stored the vault password ${mask}\n- A login code mail`);
      const [stored] = radar.digests.list(5);
      assert.ok(!stored.content.includes(secret));
    },
  );
});
