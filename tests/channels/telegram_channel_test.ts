/** The Telegram adapter against the Bot API stand-in: updates, offsets, sends, edits, files, 429. */
import assert from "node:assert/strict";
import { openTelegramChannel } from "../../src/channels/telegram/telegram_channel.ts";
import { FakeTelegramServer } from "../fakes/fake_telegram_server.ts";

const owner = { id: 1001, first_name: "Olive" };

Deno.test("the Telegram adapter reads updates after its offset and answers in the same chat", async () => {
  const server = new FakeTelegramServer();
  try {
    const channel = await openTelegramChannel({
      token: server.token,
      apiRoot: server.apiRoot,
      pollSeconds: 0,
    });
    const signal = AbortSignal.timeout(10_000);
    server.userSays(owner, "hello");
    server.userSays(owner, "again", {
      forward_origin: {
        type: "user",
        date: 1,
        sender_user: { id: 5, is_bot: false, first_name: "Jane" },
      },
    });
    const first = await channel.receive(undefined, signal);
    assert.deepEqual(first.messages.map((message) => message.text), ["hello", "again"]);
    assert.equal(first.messages[0].chatId, "1001");
    assert.equal(first.messages[0].senderId, "1001");
    assert.equal(first.messages[1].forwardedFrom, "Jane");
    // The next poll with the stored offset confirms them: nothing comes twice.
    const second = await channel.receive(first.cursor, signal);
    assert.deepEqual(second.messages, []);
    assert.equal(server.unconfirmed, 0);

    const sent = await channel.send({
      id: "1",
      chatId: "1001",
      text: "Hi!",
      buttons: [{ label: "Approve", data: "a:x" }],
    }, signal);
    assert.equal(sent.sent, true);
    const message = await server.waitForSent((entry) => entry.text === "Hi!");
    assert.deepEqual(message.buttons, [{ text: "Approve", callback_data: "a:x" }]);
    const edited = await channel.send(
      { id: "2", chatId: "1001", text: "Done.", edit: String(message.message_id) },
      signal,
    );
    assert.equal(edited.sent, true);
    assert.deepEqual(server.sent.at(-1), { ...message, text: "Done.", buttons: [], edited: true });

    server.userPresses(owner, message, "a:x");
    const pressed = await channel.receive(second.cursor, signal);
    assert.equal(pressed.messages[0].answer?.key, "a:x");
    await channel.acknowledge!(pressed.messages[0].answer!, "Approved", signal);
    assert.equal(server.answeredCallbacks.get(pressed.messages[0].answer!.callbackId!), "Approved");
  } finally {
    await server.close();
  }
});

Deno.test("the Telegram adapter downloads attachments within the cap and reports 429 waits", async () => {
  const server = new FakeTelegramServer();
  try {
    const channel = await openTelegramChannel({
      token: server.token,
      apiRoot: server.apiRoot,
      pollSeconds: 0,
    });
    const signal = AbortSignal.timeout(10_000);
    server.userSendsDocument(owner, "statement.pdf", new TextEncoder().encode("%PDF-1.4 fake"));
    const batch = await channel.receive(undefined, signal);
    const [attachment] = batch.messages[0].attachments;
    assert.equal(attachment.name, "statement.pdf");
    const bytes = await channel.download(attachment, 1024, signal);
    assert.equal(new TextDecoder().decode(bytes), "%PDF-1.4 fake");
    await assert.rejects(channel.download(attachment, 4, signal), /larger than/);

    server.failNext.set("sendMessage", [{
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: "Too Many Requests: retry after 3",
        parameters: { retry_after: 3 },
      },
    }]);
    const limited = await channel.send({ id: "3", chatId: "1001", text: "x" }, signal);
    assert.deepEqual(limited, {
      sent: false,
      error: "Telegram: 429 Too Many Requests: retry after 3",
      retryAfterMs: 3000,
      permanent: false,
    });
  } finally {
    await server.close();
  }
});
