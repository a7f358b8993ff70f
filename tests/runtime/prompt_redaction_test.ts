/**
 * The system prompt never carries a known secret: a plugin's prompt variable that prints a
 * password Radar read after start is masked (like a tool result), and a personality note quoting
 * it has the value replaced and nothing else (the rest of the prompt stays byte-identical, so the
 * server's prompt cache holds). Checked on what the fake LLM server received over HTTP.
 */
import assert from "node:assert/strict";
import { type FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import {
  chatTurn,
  learnSecretFromEnv,
  noPluginsYaml,
  secretMask as mask,
  seedConversation,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";

const status = (secret: string) => ({
  "manifest.yaml": `name: status
version: 1.0.0
description: Puts the vault status into the prompt
trust_level: sandbox
capabilities: [prompt_variables]
prompt_variables:
  - name: vault
`,
  "tool.ts": `export function vault(): string { return "unlocked with ${secret}"; }\n`,
});

function systemPrompt(server: FakeLlmServer, index: number): string {
  const body = server.chatRequests[index].body as { messages: Array<{ content: string }> };
  return body.messages[0].content;
}

Deno.test("prompt variables and personality notes reach the model with secrets masked", async () => {
  const secret = "Prompt-Secret-3307-late";
  await withFakeLlmRadar(
    { prefix: "radar-prompt-redaction-", plugins: { status: status(secret) } },
    async (radar, { server }) => {
      radar.facts.addFact({
        category: "personality_note",
        content: `The wifi password is ${secret}; say so when asked`,
      }, radar.clock.now());
      const ask = async (message: string) => {
        server.reply(ollamaText("ok"));
        return await chatTurn(radar, message);
      };
      await ask("hello");
      assert.ok(systemPrompt(server, 0).includes(secret), "not known yet: nothing to mask");

      await learnSecretFromEnv(radar, "VAULT_PW", secret);
      await ask("hello again");
      await ask("and again");
      const masked = systemPrompt(server, 1);
      assert.ok(masked.includes(`unlocked with ${mask}`), masked);
      assert.ok(masked.includes(`The wifi password is ${mask}; say so when asked`), masked);
      assert.ok(!JSON.stringify(server.chatRequests[1].body).includes(secret));
      assert.equal(
        masked,
        systemPrompt(server, 0).split(secret).join(mask),
        "only the secret's value changed",
      );
      assert.equal(systemPrompt(server, 2), masked, "byte-identical from request to request");
    },
  );
});

Deno.test("an answer that quoted a secret before it was known is masked when replayed; the user's own words are not", async () => {
  const secret = "Replay-Secret-9914-late";
  await withFakeLlmRadar(
    { prefix: "radar-prompt-redaction-", yaml: noPluginsYaml },
    async (radar, { server }) => {
      const id = seedConversation(radar, [
        { role: "user", content: `remember that my router key is ${secret}` },
        { role: "assistant", content: `Noted: your router key is ${secret}.` },
      ]);
      await learnSecretFromEnv(radar, "ROUTER_PW", secret, "router");
      server.reply(ollamaText("ok"));
      await chatTurn(radar, "what did I tell you?", { conversationId: id });
      const body = server.chatRequests[0].body as {
        messages: Array<{ role: string; content: string }>;
      };
      const answer = body.messages.find((message) => message.role === "assistant")!;
      assert.equal(answer.content, `Noted: your router key is ${mask}.`);
      const typed = body.messages.find((message) => message.content.includes("my router key"))!;
      assert.ok(typed.content.includes(secret), "a person's own message is replayed as typed");
    },
  );
});
