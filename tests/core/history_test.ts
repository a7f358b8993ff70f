import assert from "node:assert/strict";
import { trimHistory } from "../../src/core/agent_messages.ts";
import type { ChatMessage } from "../../src/core/chat_model.ts";

Deno.test("trimHistory() drops tool results whose request was cut off the window", () => {
  const window: ChatMessage[] = [
    { role: "tool", content: "old result", toolCallId: "a", toolName: "x" },
    { role: "assistant", content: "answer" },
    { role: "user", content: "next" },
  ];
  assert.deepEqual(trimHistory(window).map((m) => m.content), ["answer", "next"]);
});

Deno.test("trimHistory() drops a tool request whose results never arrived", () => {
  const window: ChatMessage[] = [
    { role: "user", content: "q" },
    { role: "assistant", content: "", toolCalls: [{ id: "a", name: "x", arguments: "{}" }] },
    { role: "user", content: "again" },
  ];
  assert.deepEqual(trimHistory(window).map((m) => m.content), ["q", "again"]);
});

Deno.test("trimHistory() keeps complete tool exchanges and strips storage fields", () => {
  const window = [
    { role: "user", content: "q", id: 1, createdAt: "x" },
    { role: "assistant", content: "", toolCalls: [{ id: "a", name: "x", arguments: "{}" }] },
    { role: "tool", content: "r", toolCallId: "a", toolName: "x" },
    { role: "assistant", content: "done" },
  ] as ChatMessage[];
  const trimmed = trimHistory(window);
  assert.equal(trimmed.length, 4);
  assert.deepEqual(trimmed[0], { role: "user", content: "q" });
});
