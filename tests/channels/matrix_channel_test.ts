/** The Matrix adapter against the Client-Server API stand-in: login, sync, send, 429, redactions. */
import assert from "node:assert/strict";
import { openMatrixChannel } from "../../src/channels/matrix/matrix_channel.ts";
import { ChannelBusyError } from "../../src/core/channel.ts";
import { FakeMatrixServer } from "../fakes/fake_matrix_server.ts";

const owner = "@olive:example.test";

Deno.test("the Matrix adapter logs in, takes the position, then reads new messages, reactions and redactions", async () => {
  const server = new FakeMatrixServer();
  try {
    const room = server.joinedRoom("!dm:example.test");
    server.userSays(owner, room, "old history, not a command");
    const channel = await openMatrixChannel({
      homeserver: server.url,
      userId: server.botUserId,
      password: server.botPassword,
      deviceId: "RADAR",
      pollSeconds: 0,
      mayInvite: (user) => user === owner,
    });
    const signal = AbortSignal.timeout(10_000);
    const first = await channel.receive(undefined, signal);
    assert.deepEqual(first.messages, []);
    assert.ok(first.cursor);

    const hello = server.userSays(owner, room, "hello");
    const second = await channel.receive(first.cursor, signal);
    assert.deepEqual(second.messages.map((message) => [message.externalId, message.text]), [
      [hello, "hello"],
    ]);
    assert.equal(second.messages[0].chatId, room);

    const sent = await channel.send({ id: "7", chatId: room, text: "Hi there" }, signal);
    assert.equal(sent.sent, true);
    // The same transaction id again sends nothing new (a retry after a lost answer).
    const again = await channel.send({ id: "7", chatId: room, text: "Hi there" }, signal);
    assert.deepEqual(again, sent);
    assert.equal(server.botEvents.length, 1);

    const asked = (sent as { externalId: string }).externalId;
    server.userReacts(owner, room, asked, "👍️");
    server.userSays(owner, room, "no", asked);
    const withdrawnEvent = server.userSays(owner, room, "oops");
    server.userRedacts(owner, room, withdrawnEvent);
    const third = await channel.receive(second.cursor, signal);
    assert.deepEqual(third.messages.map((message) => message.answer), [
      { key: asked, action: "approve" },
      { key: asked, action: "deny" },
      undefined,
    ]);
    assert.deepEqual(third.withdrawn, [withdrawnEvent]);

    server.invite(owner, "!new:example.test");
    await channel.receive(third.cursor, signal);
    assert.equal(server.isJoined("!new:example.test"), true);
  } finally {
    await server.close();
  }
});

Deno.test("the Matrix adapter reports the homeserver's retry_after_ms and downloads files", async () => {
  const server = new FakeMatrixServer();
  try {
    const room = server.joinedRoom("!dm:example.test");
    const channel = await openMatrixChannel({
      homeserver: server.url,
      userId: server.botUserId,
      accessToken: server.accessToken,
      deviceId: "RADAR",
      pollSeconds: 0,
      mayInvite: () => false,
    });
    const signal = AbortSignal.timeout(10_000);
    server.rateLimit = { remaining: 1, retryAfterMs: 1234 };
    const limited = await channel.send({ id: "1", chatId: room, text: "x" }, signal);
    assert.equal(limited.sent, false);
    assert.equal((limited as { retryAfterMs?: number }).retryAfterMs, 1234);

    const start = await channel.receive(undefined, signal);
    server.userSendsFile(owner, room, "statement.pdf", new TextEncoder().encode("%PDF fake"));
    const batch = await channel.receive(start.cursor, signal);
    const [file] = batch.messages[0].attachments;
    assert.equal(file.name, "statement.pdf");
    assert.equal(new TextDecoder().decode(await channel.download(file, 1000, signal)), "%PDF fake");

    const bad = await openMatrixChannel({
      homeserver: server.url,
      userId: server.botUserId,
      password: "wrong",
      deviceId: "RADAR",
      pollSeconds: 0,
      mayInvite: () => false,
    }).catch((error) => error as Error);
    assert.match(String(bad), /Matrix login as @radar:example.test failed: 403 M_FORBIDDEN/);
    assert.ok(ChannelBusyError);
  } finally {
    await server.close();
  }
});
