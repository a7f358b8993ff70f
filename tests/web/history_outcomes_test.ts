import assert from "node:assert/strict";
import { SqliteAuditStore } from "../../src/adapters/sqlite/audit_store.ts";
import type { StoredMessage } from "../../src/core/ports.ts";
import { pairOutcomes } from "../../web/views/conversation.tsx";
import { createWebFixture } from "./web_fixture.ts";

Deno.test("history marks tool calls with the audit trail's exact outcome, not the wording", async () => {
  const fixture = createWebFixture();
  const audit = new SqliteAuditStore(fixture.db, {
    retentionDays: 30,
    clock: fixture.clock,
  });
  fixture.deps.toolOutcomes = (id) => audit.outcomesOf(id);
  try {
    const at = fixture.clock.now();
    const id = fixture.conversations.createConversation("chat", "outcomes", at);
    fixture.conversations.appendMessage(id, { role: "user", content: "go", createdAt: at });
    const calls = [
      // Reads like a refusal but succeeded (a file that starts with "Refused").
      { id: "c1", name: "read_file", result: "Refused: the meeting notes say no", outcome: "ok" },
      // Reads like a success but the tool failed.
      {
        id: "c2",
        name: "fetch_url",
        result: "200 bytes fetched, then the stream broke",
        outcome: "error",
      },
    ] as const;
    fixture.conversations.appendMessage(id, {
      role: "assistant",
      content: "",
      toolCalls: calls.map((call) => ({ id: call.id, name: call.name, arguments: "{}" })),
      createdAt: at,
    });
    for (const call of calls) {
      audit.recordToolCall({
        at,
        conversationId: id,
        tool: call.name,
        arguments: "{}",
        durationMs: 1,
        outcome: call.outcome,
        result: call.result,
      });
      fixture.conversations.appendMessage(id, {
        role: "tool",
        content: call.result,
        toolCallId: call.id,
        toolName: call.name,
        createdAt: at,
      });
    }
    const page = await (await fixture.app.request(`/history/${id}`)).text();
    const badges = [
      ...page.matchAll(/class="tool-name">([a-z_]+)<\/span><span class="badge outcome-(\w+)"/g),
    ]
      .map((match) => [match[1], match[2]]);
    assert.deepEqual(badges, [["read_file", "ok"], ["fetch_url", "error"]]);
    const chat = await (await fixture.app.request(`/chat?c=${id}`)).text();
    assert.match(chat, /fetch_url<\/span><span class="badge outcome-error">failed/);

    fixture.deps.toolOutcomes = undefined;
    const guessed = await (await fixture.app.request(`/history/${id}`)).text();
    assert.match(guessed, /read_file<\/span><span class="badge outcome-refused">/, "wording only");
  } finally {
    fixture.close();
  }
});

Deno.test("pairOutcomes() aligns from the newest call and stops where pruning broke the order", () => {
  const tool = (name: string): StoredMessage =>
    ({ role: "tool", content: "x", toolName: name }) as StoredMessage;
  const messages = [tool("exec"), tool("read_file"), tool("exec")];
  const pruned = pairOutcomes(messages, [
    { tool: "read_file", outcome: "timeout" },
    { tool: "exec", outcome: "refused" },
  ]);
  assert.deepEqual(
    [...pruned.entries()].map(([message, outcome]) => [messages.indexOf(message), outcome]),
    [
      [2, "refused"],
      [1, "timeout"],
    ],
  );
  const mismatch = pairOutcomes(messages, [{ tool: "read_file", outcome: "error" }]);
  assert.equal(mismatch.size, 0, "names disagree at the newest end: nothing is guessed");
});
