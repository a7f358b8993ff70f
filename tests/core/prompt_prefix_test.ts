import assert from "node:assert/strict";
import { z } from "zod";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { AgentDependencies } from "../../src/core/agent_types.ts";
import type { ChatRequest } from "../../src/core/chat_model.ts";
import { buildSystemPrompt, stampUserMessage } from "../../src/core/system_prompt.ts";
import { defineTool } from "../../src/core/tool_definition.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";

/** The request as a prompt template would lay it out: system, tools, then the turns. */
const rendered = (request: ChatRequest) =>
  [JSON.stringify(request.messages[0]), JSON.stringify(request.tools)]
    .concat(request.messages.slice(1).map((message) => JSON.stringify(message))).join("\n");

Deno.test("a conversation's next request starts with the previous request, byte for byte", async () => {
  const registry = new ToolRegistry();
  for (const name of ["list_directory", "read_file", "notify"]) {
    registry.register(defineTool({
      name,
      description: `The ${name.replace("_", " ")} tool`,
      input: z.object({ path: z.string().describe("Path") }),
      run: () => Promise.resolve("a.pdf\nb.pdf"),
    }));
  }
  const db = openDatabase(":memory:");
  const store = new SqliteConversationStore(db);
  const clock = new ManualClock(new Date("2026-11-23T09:00:00Z"));
  const model = new ScriptedChatModel([
    toolCallResponse("list_directory", { path: "~/Downloads" }),
    textResponse("Two PDFs."),
    textResponse("Sent."),
    textResponse("Nothing new."),
    textResponse("Still nothing."),
  ]);
  const deps: AgentDependencies = {
    model,
    registry,
    store,
    clock,
    elapsed: () => 0,
    systemPrompt: () =>
      buildSystemPrompt({ name: "Radar", personality: "Brief.", personalityNotes: [] }),
    stampUserMessage: (content, sentAt) => stampUserMessage(content, sentAt, "UTC"),
    // No markerId: the default (random once per process) must keep replayed results stable.
    settings: {
      maxToolIterations: 5,
      temperature: 0,
      toolBudgetTokens: 1000,
      historyMessages: 20,
      maxResultChars: 2000,
    },
  };
  const chat = store.createConversation("chat", "test", clock.now());
  await runAgent(deps, {
    conversationId: chat,
    kind: "chat",
    userMessage: "Which PDFs are in Downloads?",
    interactive: false,
  });
  clock.advance(7 * 60_000);
  await runAgent(deps, {
    conversationId: chat,
    kind: "chat",
    userMessage: "Send me a notification about them",
    interactive: false,
  });
  const [first, second, third] = model.requests.map(rendered);
  assert.match(second, /<untrusted id=\\"[0-9a-f]{12}\\" source=\\"tool list_directory\\">/);
  assert.ok(second.startsWith(first));
  assert.ok(third.startsWith(second), "seven minutes later the replayed turns are unchanged");
  assert.match(model.requests[2].messages.at(-1)!.content, /^\[Monday, 23 Nov 2026, 09:07 UTC\]\n/);
  assert.match(model.requests[2].messages[1].content, /^\[Monday, 23 Nov 2026, 09:00 UTC\]\n/);
  assert.deepEqual(model.requests[2].tools.map((tool) => tool.name), [
    "list_directory",
    "read_file",
    "notify",
  ], "registration order whatever the message");
  assert.equal(store.recentMessages(chat, 1).length, 1);
  assert.equal(
    store.recentMessages(chat, 10).find((message) => message.role === "user")!.content,
    "Which PDFs are in Downloads?",
    "stored as typed; the time is added when sent",
  );

  // Heartbeats carry their own "It is …" and share the system prompt and tools across ticks.
  const heartbeat = store.createConversation("heartbeat", "hb", clock.now());
  for (const minute of ["09:30", "10:00"]) {
    clock.advance(30 * 60_000);
    await runAgent(deps, {
      conversationId: heartbeat,
      kind: "heartbeat",
      userMessage: `It is ${minute}. Check if anything needs attention.`,
      interactive: false,
    });
  }
  const [tickOne, tickTwo] = model.requests.slice(3);
  assert.equal(tickOne.messages.at(-1)!.content, "It is 09:30. Check if anything needs attention.");
  assert.ok(rendered(tickTwo).startsWith(rendered(tickOne).split("\n").slice(0, 2).join("\n")));
  db.close();
});
