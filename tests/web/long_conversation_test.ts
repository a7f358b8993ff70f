/**
 * One huge conversation is read a page at a time: the store never returns more than a page, the
 * dashboard shows one page with a link to the next, and both exports still hold every message
 * (streamed), in the same format as before.
 */
import assert from "node:assert/strict";
import { maxMessagesPerPage } from "../../src/adapters/sqlite/conversation_store.ts";
import { messagesPerPage } from "../../web/routes/history.tsx";
import { createWebFixture } from "./web_fixture.ts";

const total = maxMessagesPerPage * 2 + 34;

function longConversation(fixture: ReturnType<typeof createWebFixture>): number {
  const at = fixture.clock.now();
  const id = fixture.conversations.createConversation("chat", "a long one", at);
  fixture.db.exec("BEGIN");
  for (let index = 1; index <= total; index++) {
    fixture.conversations.appendMessage(id, {
      role: index % 2 ? "user" : "assistant",
      content: `message number ${index}`,
      createdAt: at,
    });
  }
  fixture.db.exec("COMMIT");
  return id;
}

Deno.test("messages() returns one bounded page; eachMessage() walks them all in order", () => {
  const fixture = createWebFixture();
  try {
    const id = longConversation(fixture);
    const first = fixture.conversations.messages(id);
    assert.equal(first.length, maxMessagesPerPage);
    assert.equal(first[0].content, "message number 1");
    const second = fixture.conversations.messages(id, { afterId: first.at(-1)!.id, limit: 10 });
    assert.deepEqual(
      second.map((message) => message.content),
      Array.from({ length: 10 }, (_, index) => `message number ${maxMessagesPerPage + index + 1}`),
    );
    assert.equal(fixture.conversations.messages(id, { limit: 1e9 }).length, maxMessagesPerPage);
    const all = [...fixture.conversations.eachMessage(id)].map((message) => message.content);
    assert.equal(all.length, total);
    assert.equal(all.at(-1), `message number ${total}`);
  } finally {
    fixture.close();
  }
});

Deno.test("the history page shows one page of messages and links the next", async () => {
  const fixture = createWebFixture();
  try {
    const id = longConversation(fixture);
    const page = await (await fixture.app.request(`/history/${id}`)).text();
    assert.match(page, new RegExp(`message number ${messagesPerPage}<`));
    assert.doesNotMatch(page, new RegExp(`message number ${messagesPerPage + 1}<`));
    const next = page.match(/href="(\/history\/\d+\?after=\d+)"/)?.[1];
    assert.ok(next, "a link to the next page");
    const nextPage = await (await fixture.app.request(next)).text();
    assert.match(nextPage, new RegExp(`message number ${messagesPerPage + 1}<`));
    assert.doesNotMatch(nextPage, /message number 1</);
  } finally {
    fixture.close();
  }
});

Deno.test("exports of a huge conversation hold every message, in the usual format", async () => {
  const fixture = createWebFixture();
  try {
    const id = longConversation(fixture);
    const json = await (await fixture.app.request(`/history/${id}/export.json`)).text();
    const conversation = fixture.conversations.conversation(id)!;
    const messages = [...fixture.conversations.eachMessage(id)];
    assert.equal(json, JSON.stringify({ conversation, messages }, null, 2));
    const markdown = await (await fixture.app.request(`/history/${id}/export.md`)).text();
    assert.equal(markdown.match(/^## (user|assistant) · /gm)?.length, total);
    assert.match(markdown, new RegExp(`message number ${total}\\n$`));
    const empty = fixture.conversations.createConversation("ask", "empty", fixture.clock.now());
    const emptyJson = await (await fixture.app.request(`/history/${empty}/export.json`)).text();
    assert.equal(
      emptyJson,
      JSON.stringify(
        { conversation: fixture.conversations.conversation(empty), messages: [] },
        null,
        2,
      ),
    );
  } finally {
    fixture.close();
  }
});
