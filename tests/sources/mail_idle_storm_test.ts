/**
 * A hostile (or broken) IMAP server that accepts the login, lets the client enter IDLE and then
 * drops the connection at once must not get a reconnect (and a new-mail check, and a
 * password_cmd run) every `firstRetryMs` forever: a session that dies young counts as a failure.
 */
import assert from "node:assert/strict";
import { MailIdleWatchers } from "../../src/sources/email/mail_idle.ts";
import { configSchema } from "../../src/config/schema.ts";
import { Secrets } from "../../src/core/secrets.ts";

/** An IMAP server that answers just enough to reach IDLE, then hangs up. Counts connections. */
function startDroppingServer(): { port: number; connections: () => number; stop: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const encoder = new TextEncoder();
  const serve = async (connection: Deno.Conn) => {
    connections++;
    const send = (text: string) => connection.write(encoder.encode(text)).catch(() => 0);
    await send("* OK [CAPABILITY IMAP4rev1 IDLE AUTH=PLAIN] hostile ready\r\n");
    const decoder = new TextDecoder();
    let buffered = "";
    const chunk = new Uint8Array(4096);
    try {
      while (true) {
        const read = await connection.read(chunk);
        if (read === null) break;
        buffered += decoder.decode(chunk.subarray(0, read));
        let end: number;
        while ((end = buffered.indexOf("\r\n")) >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const [tag, command = ""] = line.split(" ");
          switch (command.toUpperCase()) {
            case "CAPABILITY":
              await send(`* CAPABILITY IMAP4rev1 IDLE AUTH=PLAIN\r\n${tag} OK done\r\n`);
              break;
            case "LOGIN":
              await send(`${tag} OK [CAPABILITY IMAP4rev1 IDLE] logged in\r\n`);
              break;
            case "SELECT":
            case "EXAMINE":
              await send(
                `* 0 EXISTS\r\n* FLAGS ()\r\n* OK [UIDVALIDITY 1] ok\r\n* OK [UIDNEXT 1] ok\r\n` +
                  `${tag} OK [READ-ONLY] done\r\n`,
              );
              break;
            case "IDLE":
              await send("+ idling\r\n");
              connection.close();
              return;
            default:
              await send(`${tag} OK done\r\n`);
          }
        }
      }
    } catch { /* closed */ }
    try {
      connection.close();
    } catch { /* already closed */ }
  };
  (async () => {
    try {
      for await (const connection of listener) void serve(connection);
    } catch { /* listener closed */ }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return { port, connections: () => connections, stop: () => listener.close() };
}

Deno.test("IMAP IDLE: a server that drops every connection in IDLE gets growing reconnect delays", async () => {
  const server = startDroppingServer();
  const checks: string[] = [];
  const watchers = new MailIdleWatchers({
    accounts: configSchema.parse({
      email: {
        accounts: [{
          name: "home",
          host: "127.0.0.1",
          port: server.port,
          tls: "none",
          user: "alice",
          password_env: "P",
        }],
      },
    }).email.accounts,
    settings: { env: { P: "pw" }, timeoutMs: 3000, secrets: new Secrets() },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    onNewMail: (account) => Promise.resolve(checks.push(account.name)),
    firstRetryMs: 40,
    maxRetryMs: 60_000,
  });
  try {
    watchers.start();
    await watchers.reached("home", "idling", AbortSignal.timeout(8000));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Backoff 40, 80, 160, 320, 640 ms: at most ~6 connections in 1.5 s (a storm makes ~30).
    assert.ok(server.connections() <= 8, `${server.connections()} connections in 1.5 s`);
    assert.ok(checks.length <= 8, `${checks.length} new-mail checks in 1.5 s`);
  } finally {
    watchers.close();
    await watchers.closed();
    server.stop();
  }
});
