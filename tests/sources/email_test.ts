import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { configSchema } from "../../src/config/schema.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { EmailCheck } from "../../src/sources/email/email_check.ts";
import type { EmailAccount } from "../../src/sources/email/imap_connection.ts";
import { ImapMailReader } from "../../src/sources/email/imap_mail_reader.ts";
import { sqliteSourceStores } from "../../src/adapters/sqlite/stores.ts";
import { freePort, mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { needing } from "../helpers/system_parts.ts";
import { Secrets } from "../../src/core/secrets.ts";

function account(port: number, overrides: Partial<Record<string, unknown>> = {}): EmailAccount {
  const config = configSchema.parse({
    email: {
      accounts: [{
        name: "home",
        host: "127.0.0.1",
        port,
        tls: "none",
        user: "alice",
        password_env: "TEST_MAIL_PASSWORD",
        ...overrides,
      }],
    },
  });
  return config.email.accounts[0];
}

const env = { TEST_MAIL_PASSWORD: "correct-horse", WRONG_PASSWORD: "battery-staple" };

class StepClock {
  constructor(public time = new Date("2026-11-23T10:00:00Z")) {}
  now() {
    return new Date(this.time);
  }
  advance(minutes: number) {
    this.time = new Date(this.time.getTime() + minutes * 60_000);
  }
}

async function harness(accounts: EmailAccount[]) {
  const dir = await Deno.makeTempDir({ prefix: "radar-email-" });
  const db = openDatabase(`${dir}/radar.db`);
  const { health: store, transaction } = sqliteSourceStores(db);
  const queue = new SqliteEventQueue(db);
  const clock = new StepClock();
  const secrets = new Secrets();
  const reader = new ImapMailReader(accounts, {
    env,
    timeoutMs: 5000,
    maxBodyChars: 200,
    secrets,
  });
  const check = new EmailCheck({
    transaction,
    store,
    queue,
    clock,
    logger: silentLogger,
    accounts,
    reader,
    everyMinutes: 5,
    timeZone: "UTC",
  });
  return {
    db,
    store,
    queue,
    clock,
    reader,
    check,
    secrets,
    async close() {
      db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test(needing(["dovecot"], {
  name: "email against a real Dovecot: new unread mail → events, tools' reads, failures",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const server = await startDovecot({ alice: env.TEST_MAIL_PASSWORD });
    const deliver = (message: string, seen = false) =>
      server.deliver("alice", env.TEST_MAIL_PASSWORD, message, seen);
    try {
      await deliver(mailMessage({ from: "Old <old@example.test>", subject: "Already read" }), true);
      await deliver(mailMessage({ from: "Bob <bob@example.test>", subject: "Lunch?" }));
      const home = account(server.port);
      const h = await harness([home]);
      try {
        await t.step("the first check takes a baseline: one summary event, no body", async () => {
          const result = await h.check.check(home);
          assert.equal(result.outcome, "baseline");
          const events = h.queue.pending(50);
          assert.equal(events.length, 1);
          assert.match(
            events[0].summary,
            /^1 unread in INBOX; newest: from Bob <bob@example\.test>: "Lunch\?"/,
          );
          assert.doesNotMatch(events[0].summary, /Hello/);
          assert.equal(h.store.health("email home")?.lastError, undefined);
        });

        await t.step("new unread mail becomes one event each, deduplicated", async () => {
          await deliver(mailMessage({
            from: "Carol <carol@example.test>",
            subject: "Invoice 42",
            body: "SECRET BODY TEXT",
          }));
          await deliver(mailMessage({ from: "dave@example.test", subject: "Seen one" }), true);
          const result = await h.check.check(home);
          assert.deepEqual([result.outcome, result.newMessages], ["checked", 1]);
          const events = h.queue.pending(50).filter((event) => event.kind === "new_email");
          assert.equal(events.length, 1);
          assert.match(
            events[0].summary,
            /from Carol <carol@example\.test>: "Invoice 42" \(2026-11-23 10:00, home uid 3\)/,
          );
          assert.doesNotMatch(events[0].summary, /SECRET BODY/);
          assert.equal(events[0].source, "email home");
          const again = await h.check.check(home);
          assert.equal(again.newMessages, 0);
          assert.equal(h.queue.pending(50).length, 2);
        });

        await t.step("run() checks only when due (every 5 minutes)", async () => {
          await deliver(mailMessage({ from: "Erin <erin@example.test>", subject: "Soon" }));
          await h.check.run(h.clock.now(), new AbortController().signal);
          assert.equal(h.queue.pending(50).length, 2);
          h.clock.advance(5);
          await h.check.run(h.clock.now(), new AbortController().signal);
          assert.equal(h.queue.pending(50).length, 3);
        });

        await t.step("list_email's reader: unread and recent headers, newest first", async () => {
          const unread = await h.reader.list("home", { unreadOnly: true, limit: 10 });
          assert.deepEqual(unread.map((mail) => mail.subject), ["Soon", "Invoice 42", "Lunch?"]);
          const recent = await h.reader.list("home", { unreadOnly: false, limit: 2 });
          assert.deepEqual(recent.map((mail) => [mail.subject, mail.unread]), [
            ["Soon", true],
            ["Seen one", false],
          ]);
        });

        await t.step(
          "read_email's reader: text part, size cap, HTML as text, still unread",
          async () => {
            await deliver(mailMessage({
              from: "News <news@example.test>",
              subject: "Weekly",
              html: "<html><style>p{color:red}</style><script>alert(1)</script><h1>Title</h1>" +
                "<p>First <b>para</b>.</p><p>" + "long ".repeat(100) + "</p></html>",
            }));
            const html = await h.reader.list("home", { unreadOnly: true, limit: 1 });
            const message = await h.reader.read("home", html[0].uid);
            assert.ok(message);
            assert.match(message.text, /^Title\n+First para\./);
            assert.doesNotMatch(message.text, /<|alert|color:red/);
            assert.equal(message.truncated, true);
            assert.ok(message.text.length <= 200);
            const plain = await h.reader.read("home", 3);
            assert.equal(plain?.text, "SECRET BODY TEXT");
            assert.equal(plain?.unread, true);
            assert.equal(await h.reader.read("home", 999), undefined);
          },
        );

        await t.step("mark_email_read's reader sets \\Seen", async () => {
          assert.equal(await h.reader.markRead("home", 3), true);
          const unread = await h.reader.list("home", { unreadOnly: true, limit: 10 });
          assert.ok(!unread.some((mail) => mail.uid === 3));
        });
      } finally {
        await h.close();
      }

      await t.step("bad credentials: one clear line, backoff, the password nowhere", async () => {
        const wrong = account(server.port, { password_env: "WRONG_PASSWORD" });
        const h2 = await harness([wrong]);
        try {
          const result = await h2.check.check(wrong);
          assert.equal(result.outcome, "failed");
          assert.equal(
            result.error,
            `home: login failed for alice at 127.0.0.1:${server.port} (wrong user or password)`,
          );
          const health = h2.store.health("email home");
          assert.equal(health?.failures, 1);
          assert.ok(!JSON.stringify(health).includes(env.WRONG_PASSWORD));
          assert.equal(health?.nextCheckAt, "2026-11-23T10:10:00.000Z");
          assert.ok(h2.secrets.known().includes(env.WRONG_PASSWORD));
        } finally {
          await h2.close();
        }
      });
    } finally {
      await server.stop();
    }
  },
}));

Deno.test("email: a dead server is one clear line and backs off", async () => {
  const port = freePort();
  const dead = account(port);
  const h = await harness([dead]);
  try {
    const result = await h.check.check(dead);
    assert.equal(result.error, `home: cannot connect to 127.0.0.1:${port}: connection refused`);
    assert.equal(h.store.health("email home")?.failures, 1);
    await h.check.run(h.clock.now(), new AbortController().signal);
    assert.equal(h.store.health("email home")?.failures, 1, "not due again before the backoff");
    h.clock.advance(10);
    await h.check.run(h.clock.now(), new AbortController().signal);
    assert.equal(h.store.health("email home")?.failures, 2);
    assert.equal(h.store.health("email home")?.nextCheckAt, "2026-11-23T10:30:00.000Z");
  } finally {
    await h.close();
  }
});

Deno.test("email: tls none is refused for a host that is not loopback", async () => {
  const remote = account(143, { host: "mail.example.test" });
  const h = await harness([remote]);
  try {
    const result = await h.check.check(remote);
    assert.match(result.error ?? "", /tls "none" is allowed only for a loopback host/);
  } finally {
    await h.close();
  }
});
