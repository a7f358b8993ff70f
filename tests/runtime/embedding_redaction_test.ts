/**
 * The embedding server (remote, like the chat model, when `llm.embedding_base_url` says so) never
 * receives a known secret: a fact stored before the password was read, a recall query, and the
 * chat message tools are ranked by are all masked with the secrets known at the call. Real
 * runtime, real SQLite, real HTTP to the fake model server's /api/embed.
 */
import assert from "node:assert/strict";
import { ollamaText } from "../fakes/fake_llm_server.ts";
import {
  chatTurn,
  learnSecretFromEnv,
  secretMask as mask,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";

const yaml =
  "llm:\n  retries: 0\n  embedding_model: nomic-embed-text\n  tool_budget_tokens: 600\n" +
  "plugins:\n  enabled: false\n";

Deno.test("texts sent to the embedding server are masked with the secrets known now", async () => {
  const secret = "Qx9Embed-7731-late";
  await withFakeLlmRadar(
    { prefix: "radar-embed-redaction-", yaml },
    async (radar, { server }) => {
      // Stored before the password was read: nothing knew it was a secret then.
      radar.facts.addFact(
        { category: "learned_fact", content: `The wifi password is ${secret}` },
        radar.clock.now(),
      );
      await learnSecretFromEnv(radar, "WIFI_PW", secret, "wifi");
      const recall = (await radar.agentStack()).registry.get("recall")!;
      await recall.run({ query: `wifi ${secret}` }, {
        kind: "chat",
        interactive: false,
        signal: AbortSignal.timeout(10_000),
      });
      server.reply(ollamaText("Noted."));
      await chatTurn(radar, `search the web for ${secret} leaks`);

      const inputs = server.requests.filter((request) => request.path === "/api/embed")
        .flatMap((request) => (request.body as { input: string[] }).input);
      assert.ok(inputs.includes(`wifi ${mask}`), `the recall query: ${inputs.slice(0, 3)}`);
      assert.ok(inputs.includes(`The wifi password is ${mask}`), "the fact");
      assert.ok(inputs.includes(`search the web for ${mask} leaks`), "the message tools rank by");
      assert.ok(!inputs.some((text) => text.includes(secret)), "no embed input holds the secret");
    },
  );
});
