/**
 * `radar doctor`'s email channel lines against real servers: Dovecot (IMAP) and Postfix (SMTP,
 * with logins checked against Dovecot's users) on loopback, as the channel tests start them
 * (root only: Postfix's master refuses other users). A working setup, a wrong SMTP and IMAP
 * password, a missing `_env` secret, an unreachable SMTP server, a mailbox that does not open, and
 * an account the channel names that does not exist.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { needing } from "../helpers/system_parts.ts";
import { withFakeLlmHome } from "../helpers/fake_llm_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { standInDoctor } from "../fakes/standin_models.ts";
import { freePort } from "../fakes/dovecot_server.ts";
import { asRoot, passwords, startMailServers } from "../channels/mail_servers.ts";

const base = "llm:\n  retries: 0\nplugins:\n  enabled: false\n";

interface Line {
  check: string;
  level: string;
  summary: string;
  fix?: string;
}

function emailYaml(input: {
  imapPort: number;
  smtpPort: number;
  mailbox?: string;
  account?: string;
  smtpSecret?: string;
}): string {
  return `email:
  accounts:
    - name: radar
      host: 127.0.0.1
      port: ${input.imapPort}
      tls: none
      user: radar
      password_env: RADAR_TEST_IMAP
      mailbox: ${input.mailbox ?? "INBOX"}
channels:
  email:
    account: ${input.account ?? "radar"}
    smtp:
      host: 127.0.0.1
      port: ${input.smtpPort}
      tls: none
      user: radar
      ${input.smtpSecret ?? "password_env: RADAR_TEST_SMTP"}
      from: radar@example.test
    allowed_senders: [owner@example.test]
`;
}

Deno.test(needing(["dovecot", "postfix", asRoot], {
  name:
    "doctor on the email channel: IMAP logs in, SMTP authenticates, and each failure is one line with its fix",
}, async () => {
  const servers = await startMailServers({ smtpAuth: true });
  try {
    await withFakeLlmHome({ prefix: "radar-doctor-email-", yaml: base }, async (home) => {
      standInDoctor(home.server, "tool_capable");
      const ports = { imapPort: servers.dovecot.port, smtpPort: servers.postfix.port };
      const env = { RADAR_TEST_IMAP: passwords.radar, RADAR_TEST_SMTP: passwords.radar };
      const doctor = async (yaml: string, extraEnv: Record<string, string> = env) => {
        Deno.writeTextFileSync(home.env.RADAR_CONFIG, base + yaml);
        const io = memoryIo({ ...home.env, ...extraEnv }, { cwd: home.folder });
        const code = await runCli(["doctor", "--json"], io);
        const out = io.out.join("");
        const record = JSON.parse(out);
        const lines = (record.verdicts as Line[]).filter((line) => line.check === "email");
        return { code, out, lines };
      };

      const working = await doctor(emailYaml(ports));
      assert.equal(working.code, 0, working.out);
      assert.deepEqual(working.lines.map((line) => [line.level, line.summary]), [
        ["ok", `IMAP: logged in as radar at 127.0.0.1:${ports.imapPort}; INBOX holds 0 mails`],
        ["ok", `SMTP: 127.0.0.1:${ports.smtpPort} accepts the login of radar`],
        ["ok", "owner: mail from owner@example.test counts when DKIM or SPF passes for it"],
        ["skip", "no daemon runs now, and none has run this channel yet"],
      ], servers.postfix.log());

      const wrongSmtp = await doctor(emailYaml(ports), { ...env, RADAR_TEST_SMTP: "wrong-pw" });
      assert.equal(wrongSmtp.code, 0);
      const smtp = wrongSmtp.lines[1];
      assert.equal(smtp.level, "fail");
      assert.match(smtp.summary, new RegExp(`^SMTP 127\\.0\\.0\\.1:${ports.smtpPort}: .*535`));
      assert.equal(smtp.fix, "check channels.email.smtp.user and its password");
      assert.ok(!wrongSmtp.out.includes("wrong-pw"), "the password in the report");

      const wrongImap = await doctor(emailYaml(ports), { ...env, RADAR_TEST_IMAP: "wrong-pw" });
      const imap = wrongImap.lines[0];
      assert.equal(imap.level, "fail");
      assert.equal(
        imap.summary,
        `IMAP: radar: login failed for radar at 127.0.0.1:${ports.imapPort} (wrong user or password)`,
      );
      assert.equal(imap.fix, "check email.accounts[radar].user and its password");
      assert.equal(wrongImap.lines[1].level, "ok", "SMTP is judged on its own");

      const missing = await doctor(
        emailYaml({ ...ports, smtpSecret: "password_env: RADAR_TEST_SMTP_MISSING" }),
      );
      assert.equal(missing.code, 0);
      assert.deepEqual([missing.lines[1].level, missing.lines[1].summary], [
        "fail",
        "the password does not resolve: channels.email.smtp.password_env: environment variable " +
        "RADAR_TEST_SMTP_MISSING is empty",
      ]);

      const deadPort = freePort();
      const unreachable = await doctor(emailYaml({ ...ports, smtpPort: deadPort }));
      assert.equal(unreachable.code, 0);
      const dead = unreachable.lines[1];
      assert.equal(dead.level, "fail");
      assert.match(dead.summary, new RegExp(`^SMTP 127\\.0\\.0\\.1:${deadPort}: .*ECONNREFUSED`));
      assert.equal(
        dead.fix,
        "check channels.email.smtp.host, port and tls (and that the server runs)",
      );

      const noMailbox = await doctor(emailYaml({ ...ports, mailbox: "Radar" }));
      const mailbox = noMailbox.lines[0];
      assert.equal(mailbox.level, "fail");
      assert.match(
        mailbox.summary,
        new RegExp(`^IMAP: logged in as radar at 127\\.0\\.0\\.1:${ports.imapPort}, but Radar`),
      );
      assert.equal(mailbox.fix, "check email.accounts[radar].mailbox");

      // An account the channel names that does not exist: the config refuses it, with the fix.
      Deno.writeTextFileSync(
        home.env.RADAR_CONFIG,
        base + emailYaml({ ...ports, account: "home" }),
      );
      const io = memoryIo({ ...home.env, ...env }, { cwd: home.folder });
      assert.equal(await runCli(["doctor"], io), 2);
      const out = io.out.join("");
      assert.match(
        out,
        /fail {2}config {5}.*channels\.email\.account: no email\.accounts entry is named "home"/,
      );
      assert.match(
        out,
        /fix: name the email\.accounts entry Radar reads in channels\.email\.account, or add it\n/,
      );
    });
  } finally {
    await servers.stop();
  }
}));
