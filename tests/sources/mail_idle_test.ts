/**
 * IMAP IDLE against a real Dovecot: new mail becomes an event while the poll interval is far away
 * (so only IDLE can have found it); a dead server is retried with backoff; close() ends it all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { mailIdleSources } from "../../src/sources/email/mail_idle_setup.ts";
import { MailIdleWatchers } from "../../src/sources/email/mail_idle.ts";
import { configSchema } from "../../src/config/schema.ts";
import { freePort, mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { needing } from "../helpers/system_parts.ts";
import { Secrets } from "../../src/core/secrets.ts";

const password = "idle-password-77";

function yaml(port: number, extra = ""): string {
  return `email:\n  check_every_minutes: 100000\n${extra}  accounts:\n    - name: home\n` +
    `      host: 127.0.0.1\n      port: ${port}\n      tls: none\n      user: alice\n` +
    `      password_cmd: "echo ${password}"\n`;
}

async function until(condition: () => boolean, what: string, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test(needing(["dovecot"], {
  name:
    "IMAP IDLE: mail appended while idling is an event at once, without a poll; close ends the connection",
  async fn() {
    const server = await startDovecot({ alice: password });
    const home = Deno.makeTempDirSync({ prefix: "radar-idle-" });
    const configPath = join(home, "radar.yaml");
    Deno.writeTextFileSync(configPath, yaml(server.port));
    const env = { HOME: home, RADAR_DATA_DIR: join(home, "data") };
    const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
    const runtime = await openRadar({ configPath, env, cwd: home, clock, logLevel: "error" });
    const [watchers] = await mailIdleSources(runtime, env);
    try {
      assert.ok(watchers, "a watcher set for the configured account");
      const email = (await runtime.tickJobs()).find((job) => job.name === "email")!;
      // The first poll takes the baseline; the next is 100000 minutes away.
      await email.run(clock.now(), AbortSignal.timeout(8000));
      const db = openDatabase(runtime.databasePath);
      const queue = new SqliteEventQueue(db);
      const newMail = () => queue.pending(50).filter((event) => event.kind === "new_email");
      watchers.start();
      await watchers.reached("home", "idling", AbortSignal.timeout(8000));
      assert.equal(watchers.connections(), 1);
      await server.deliver(
        "alice",
        password,
        mailMessage({ from: "Frank <frank@example.test>", subject: "Right now" }),
      );
      await until(() => newMail().length === 1, "the new_email event");
      assert.match(newMail()[0].summary, /from Frank <frank@example\.test>: "Right now"/);
      // Still one IDLE connection, still idling, for a second message too.
      await watchers.reached("home", "idling", AbortSignal.timeout(8000));
      await server.deliver(
        "alice",
        password,
        mailMessage({ from: "g@example.test", subject: "Two" }),
      );
      await until(() => newMail().length === 2, "the second event");
      db.close();
      watchers.close();
      await watchers.closed();
      assert.equal(watchers.connections(), 0);
      assert.equal(watchers.state("home"), "stopped");
    } finally {
      watchers?.close();
      runtime.close();
      await server.stop();
      Deno.removeSync(home, { recursive: true });
    }
  },
}));

function recordingLogger(warnings: string[]) {
  return {
    debug() {},
    info() {},
    warn: (message: string, fields?: Record<string, unknown>) =>
      warnings.push(`${message} ${JSON.stringify(fields)}`),
    error() {},
  };
}

function accountsAt(port: number) {
  return configSchema.parse({
    email: {
      accounts: [{
        name: "home",
        host: "127.0.0.1",
        port,
        tls: "none",
        user: "alice",
        password_env: "P",
      }],
    },
  }).email.accounts;
}

Deno.test(needing(["dovecot"], {
  name: "IMAP IDLE: a dropped connection is reopened and checks for mail missed meanwhile",
  async fn() {
    const server = await startDovecot({ alice: password });
    const checks: string[] = [];
    const watchers = new MailIdleWatchers({
      accounts: accountsAt(server.port),
      settings: { env: { P: password }, timeoutMs: 3000, secrets: new Secrets() },
      logger: recordingLogger([]),
      onNewMail: (account) => Promise.resolve(checks.push(account.name)),
      firstRetryMs: 40,
    });
    try {
      watchers.start();
      await watchers.reached("home", "idling", AbortSignal.timeout(8000));
      assert.deepEqual(checks, [], "no new-mail check without new mail");
      // The server drops every connection of alice.
      const kick = await new Deno.Command("doveadm", {
        args: ["-c", join(server.dir, "dovecot.conf"), "kick", "alice"],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.ok(kick.success, new TextDecoder().decode(kick.stderr));
      await watchers.reached("home", "waiting", AbortSignal.timeout(8000));
      await watchers.reached("home", "idling", AbortSignal.timeout(8000));
      await until(() => checks.length === 1, "the catch-up check after the reconnect");
      assert.equal(watchers.connections(), 1);
    } finally {
      watchers.close();
      await watchers.closed();
      await server.stop();
    }
  },
}));

Deno.test("IMAP IDLE: a dead server is retried with growing delays and one warning; close() stops it", async () => {
  const warnings: string[] = [];
  const watchers = new MailIdleWatchers({
    accounts: accountsAt(freePort()),
    settings: { env: { P: password }, timeoutMs: 3000, secrets: new Secrets() },
    logger: recordingLogger(warnings),
    onNewMail: () => Promise.resolve(),
    firstRetryMs: 40,
    maxRetryMs: 200,
  });
  try {
    const started = Date.now();
    watchers.start();
    // Three refused connects, 40 then 80 ms apart at least (the backoff), one warning.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt) await watchers.reached("home", "connecting", AbortSignal.timeout(8000));
      await watchers.reached("home", "waiting", AbortSignal.timeout(8000));
    }
    assert.ok(Date.now() - started >= 120, "the retries wait 40 ms, then 80 ms");
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /home: cannot connect to 127\.0\.0\.1:\d+: connection refused/);
    assert.equal(watchers.connections(), 0);
    const closing = Date.now();
    watchers.close();
    await watchers.closed();
    assert.ok(Date.now() - closing < 1000, "close() does not wait out the backoff");
    assert.equal(watchers.state("home"), "stopped");
  } finally {
    watchers.close();
  }
});

Deno.test("IMAP IDLE is off without accounts or with email.idle false", async () => {
  const radar = (email: Record<string, unknown>) => ({
    config: configSchema.parse({ email }),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    secrets: new Secrets(),
    tickJobs: () => Promise.resolve([]),
  });
  assert.deepEqual(await mailIdleSources(radar({})), []);
  assert.deepEqual(
    await mailIdleSources(radar({
      idle: false,
      accounts: [{ name: "h", host: "127.0.0.1", user: "u", password_env: "P" }],
    })),
    [],
  );
});
