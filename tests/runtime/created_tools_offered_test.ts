/** Tools that appear during a session (create_tool with auto-approval) are offered on its next turn. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAgent } from "../../src/core/agent_loop.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

const shout = {
  name: "shout",
  description: "Upper-case a text",
  parameters: { text: { type: "string", description: "Text" } },
  code: "export function shout(args: { text: string }): string { return args.text.toUpperCase(); }",
  tests: [{ name: "shouts", input_args: { text: "hello" }, expected_output: "HELLO" }],
};

type ChatBody = { tools: Array<{ function: { name: string } }> };

Deno.test("runtime: a tool created in a chat is offered on its next turn", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-new-tools-" });
  const server = FakeLlmServer.start();
  const env = { HOME: home, RADAR_DATA_DIR: join(home, "data"), RADAR_LLM_BASE_URL: server.url };
  Deno.writeTextFileSync(
    join(home, "radar.yaml"),
    "plugins:\n  allow_llm_generated: true\n  auto_approve_if_tests_pass: true\n",
  );
  const turn = async (session: Radar, conversationId: number, message: string) =>
    await runAgent(await session.agent(), {
      conversationId,
      kind: "chat",
      userMessage: message,
      // The user says yes to enabling the tool the model wrote (its description persists).
      interactive: true,
      confirm: () => Promise.resolve(true),
    });
  try {
    {
      const session = await openRadar({
        configPath: join(home, "radar.yaml"),
        env,
        cwd: home,
        logLevel: "error",
      });
      try {
        const conversationId = session.conversations.createConversation("chat", "", new Date());
        server.reply(ollamaToolCall("create_tool", shout), ollamaText("Created."));
        const created = await turn(session, conversationId, "create a tool that shouts text");
        assert.match(created.toolExecutions[0].result.text, /it is enabled/);
        server.reply(ollamaText("HELLO"));
        const next = await turn(session, conversationId, "shout hello");
        const offered = (server.chatRequests.at(-1)!.body as ChatBody).tools
          .map((tool) => tool.function.name);
        assert.ok(offered.includes("shout"), `offered ${offered}`);
        assert.deepEqual(next.offeredTools, offered);
      } finally {
        session.close();
      }
    }
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});
