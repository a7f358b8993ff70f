/** The context budget in the loop's own terms: history left out, results cut, requests refused. */
import assert from "node:assert/strict";
import type { ChatMessage, ChatModel, PromptLimit } from "../../src/core/chat_model.ts";
import {
  ContextTooSmallError,
  cutToRoom,
  dropHistory,
  estimateJsonTokens,
  fitRequest,
  fitToolResult,
  requestTokens,
} from "../../src/core/context_fit.ts";
import { splitText } from "../../src/core/document_reading.ts";

/** A model that only knows its limit (fitting never chats). */
function limited(tokens: number): ChatModel {
  const limit: PromptLimit = { tokens, window: tokens * 2, source: "test" };
  return {
    provider: "test",
    model: "test",
    chat: () => Promise.reject(new Error("not called")),
    status: () => Promise.reject(new Error("not called")),
    promptLimit: () => Promise.resolve(limit),
  };
}

function conversation(turns: number, size: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are Radar." }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `question ${turn} ${"q".repeat(size)}` });
    messages.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${turn}`, name: "read_file", arguments: "{}" }],
    });
    messages.push({ role: "tool", content: "r".repeat(size), toolCallId: `c${turn}` });
    messages.push({ role: "assistant", content: `answer ${turn}` });
  }
  messages.push({ role: "user", content: "the new question" });
  return messages;
}

Deno.test("history is left out whole turns at a time, oldest first, until the request fits", () => {
  const messages = conversation(6, 700);
  const request = { messages, historyEnd: messages.length - 1 };
  const before = requestTokens(messages, 300);
  const dropped = dropHistory(request, 300, Math.floor(before / 2));
  assert.ok(dropped > 0 && dropped % 4 === 0, `whole turns: ${dropped}`);
  assert.ok(requestTokens(messages, 300) <= before / 2);
  assert.equal(messages[0].role, "system");
  assert.equal(messages[1].role, "user", "what is left starts at a user turn");
  assert.match(messages[1].content, /^question [1-5] /, "the oldest went first");
  assert.equal(messages[request.historyEnd].content, "the new question");
});

Deno.test("a request that fits is sent as it is; one that cannot fit is refused in one line", async () => {
  const messages = conversation(2, 100);
  const warnings: string[] = [];
  await fitRequest(limited(100_000), { messages, historyEnd: messages.length - 1 }, 50, warnings);
  assert.equal(messages.length, 10);
  assert.deepEqual(warnings, []);
  const tight = conversation(2, 100);
  const request = { messages: tight, historyEnd: tight.length - 1 };
  await assert.rejects(
    () => fitRequest(limited(30), request, 400, warnings),
    (error: unknown) => {
      assert.ok(error instanceof ContextTooSmallError);
      assert.doesNotMatch(error.message, /\n/);
      assert.match(error.message, /needs about \d+ tokens \(tool schemas 400\).*Nothing was sent/);
      return true;
    },
  );
  assert.match(warnings.join("\n"), /left out the 8 oldest message/);
});

Deno.test("a long tool result is cut to the room left, saying how much the model sees", async () => {
  const messages = conversation(0, 0);
  const request = { messages, historyEnd: 1 };
  const text = Array.from({ length: 2000 }, (_, line) => `line ${line}: "quoted" data`).join("\n");
  const warnings: string[] = [];
  const wrap = (content: string): ChatMessage => ({ role: "tool", content, toolCallId: "c" });
  const fitted = await fitToolResult(limited(1200), request, 200, {
    text,
    toolName: "read_file",
    wrap,
  }, warnings);
  const total = requestTokens([...messages, fitted], 200);
  assert.ok(total <= 1200, `${total} tokens`);
  const shown = Number(fitted.content.match(/the first (\d+) of 48889 characters are shown/)![1]);
  assert.ok(shown > 2000 && fitted.content.startsWith(text.slice(0, shown)));
  assert.match(
    warnings[0],
    new RegExp(`cut the result of read_file .*: ${shown} of \\d+ characters sent`),
  );
});

Deno.test("cutToRoom keeps JSON-escaped text within the room, or leaves it out when tiny", () => {
  const text = 'a\n"b"\n'.repeat(5000);
  const cut = cutToRoom(text, 500);
  assert.ok(estimateJsonTokens(cut.text) <= 500 + 60, "the note is the only overshoot");
  assert.equal(cut.text.slice(0, cut.shown), text.slice(0, cut.shown));
  const none = cutToRoom(text, 10);
  assert.equal(none.shown, 0);
  assert.match(none.text, /^\[Radar left this result out \(30000 characters\)/);
});

Deno.test("splitText covers the text in order, each part within its room, at line breaks", () => {
  const text = Array.from({ length: 900 }, (_, i) => `Paragraph ${i}: some "text".\n`).join("");
  const parts = splitText(text, 400);
  assert.equal(parts.map((part) => part.text).join(""), text);
  for (const part of parts) {
    assert.ok(estimateJsonTokens(part.text) <= 400);
    assert.equal(text.slice(part.start, part.start + part.text.length), part.text);
  }
  assert.ok(parts.slice(0, -1).every((part) => part.text.endsWith("\n")));
});
