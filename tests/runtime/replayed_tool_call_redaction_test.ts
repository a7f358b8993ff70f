/**
 * A tool call the model made with a secret in its arguments, stored before that secret was known
 * (read later by password_env), is replayed with the secret's value masked — also where the
 * stored JSON escapes it — and nothing else changed: the replayed history is byte-identical to the
 * earlier request's except for the secret. Checked on what the fake LLM server received over HTTP.
 */
import assert from "node:assert/strict";
import { ollamaText } from "../fakes/fake_llm_server.ts";
import {
  chatTurn,
  learnSecretFromEnv,
  noPluginsYaml,
  secretMask as mask,
  seedConversation,
  withFakeLlmRadar,
} from "../helpers/fake_llm_home.ts";

Deno.test("tool-call arguments in replayed assistant turns are masked with the known secrets", async () => {
  const plain = "Tc9Args-4417-late";
  const quoted = 'Q"uote\\Pw-8812';
  await withFakeLlmRadar(
    { prefix: "radar-replay-args-", yaml: noPluginsYaml },
    async (radar, { server }) => {
      const id = seedConversation(radar, [
        { role: "user", content: "log in to the router for me" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{
            id: "call_1",
            name: "exec",
            arguments: JSON.stringify({
              command: `router-login --password ${plain} --pin ${quoted}`,
            }),
          }],
        },
        { role: "tool", content: "logged in", toolCallId: "call_1", toolName: "exec" },
        { role: "assistant", content: "Done." },
      ]);
      const ask = async (message: string) => {
        server.reply(ollamaText("ok"));
        await chatTurn(radar, message, { conversationId: id, toolNames: [] });
      };
      await ask("thanks");
      for (const [name, value] of [["ROUTER_PW", plain], ["ROUTER_PIN", quoted]]) {
        await learnSecretFromEnv(radar, name, value, "router");
      }
      await ask("and now?");

      type Body = {
        messages: Array<
          { role: string; tool_calls?: Array<{ function: { arguments: { command: string } } }> }
        >;
      };
      const before = server.chatRequests[0].body as Body;
      const after = server.chatRequests[1].body as Body;
      const call = after.messages.find((message) => message.tool_calls)!;
      assert.equal(
        call.tool_calls![0].function.arguments.command,
        `router-login --password ${mask} --pin ${mask}`,
      );
      const sent = JSON.stringify(after);
      assert.ok(!sent.includes(plain), "the plain secret is not sent");
      assert.ok(!sent.includes(JSON.stringify(quoted).slice(1, -1)), "nor the JSON-escaped one");
      // The replayed turns (after the system prompt, up to the first run's user message) changed
      // only where the secrets were.
      const replayed = (body: Body) => JSON.stringify(body.messages.slice(1, 5));
      const expected = replayed(before).split(plain).join(mask)
        .split(JSON.stringify(quoted).slice(1, -1)).join(mask);
      assert.notEqual(replayed(before), expected, "the first request carried the secrets");
      assert.equal(replayed(after), expected);
    },
  );
});
