/**
 * The email channel as `radar doctor` checks it: the `email.accounts` entry it reads exists, its
 * password and the SMTP password resolve, IMAP logs in and opens the mailbox (the email source's
 * own session code), and SMTP connects and, with a user, logs in (nodemailer's `verify()`, through
 * the channel's own sender). imapflow and nodemailer are loaded here, when the check runs.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { SecretEntry } from "../channels/channel_secret.ts";
import { firstLine } from "../core/errors.ts";
import { readSecret, type SecretReading } from "./channel_secret_check.ts";
import { type Verdict, verdict } from "./verdict.ts";

type EmailSection = NonNullable<RadarConfig["channels"]["email"]>;

/** The email channel's verdicts (true `reached`: IMAP and SMTP both answered). */
export async function emailServiceVerdicts(
  config: RadarConfig,
  email: EmailSection,
  reading: SecretReading,
): Promise<{ verdicts: Verdict[]; reached: boolean }> {
  const account = config.email.accounts.find((entry) => entry.name === email.account);
  if (!account) {
    const names = config.email.accounts.map((entry) => entry.name);
    return {
      reached: false,
      verdicts: [verdict("email", "fail", `no email.accounts entry is named "${email.account}"`, {
        fix: names.length
          ? `set channels.email.account to one of ${names.join(", ")}`
          : "add the mailbox Radar reads to email.accounts (docs/configuration.md)",
      })],
    };
  }
  const timeoutMs = config.email.timeout_seconds * 1000;
  const [imap, smtp] = await Promise.all([
    imapVerdict(account, { ...reading, timeoutMs }),
    smtpVerdict(email.smtp, { ...reading, timeoutMs }),
  ]);
  return { verdicts: [imap, smtp], reached: imap.level === "ok" && smtp.level === "ok" };
}

type Account = RadarConfig["email"]["accounts"][number];

/** IMAP: the account's password, a login, and the mailbox opened for its status. */
async function imapVerdict(account: Account, reading: SecretReading): Promise<Verdict> {
  const section = `email.accounts[${account.name}]`;
  const secret = await readSecret(
    { check: "email", section, entry: account as SecretEntry, key: "password", what: "password" },
    reading,
  );
  if ("failed" in secret) return secret.failed;
  const { checkTransport, describeImapError, imapClient } = await import(
    "../sources/email/imap_connection.ts"
  );
  const where = `${account.host}:${account.port}`;
  try {
    checkTransport(account);
  } catch (error) {
    return verdict("email", "fail", `IMAP: ${firstLine(error, 300)}`, {
      fix: `set ${section}.tls to implicit or starttls`,
    });
  }
  const client = imapClient(account, secret.value, reading);
  client.on("error", () => {});
  try {
    try {
      await client.connect();
    } catch (error) {
      const failed = (error as { authenticationFailed?: boolean }).authenticationFailed;
      return verdict("email", "fail", `IMAP: ${describeImapError(account, error, secret.value)}`, {
        fix: failed
          ? `check ${section}.user and its password`
          : `check ${section}.host, port and tls (and that the server runs)`,
      });
    }
    const loggedIn = `IMAP: logged in as ${account.user} at ${where}`;
    let messages: number | undefined;
    let problem = "no such mailbox";
    try {
      const status = await client.status(account.mailbox, { messages: true });
      if (status) messages = status.messages ?? 0;
    } catch (error) {
      const said = error as { responseText?: string };
      problem = firstLine(said.responseText || error, 200);
    }
    if (messages === undefined) {
      return verdict(
        "email",
        "fail",
        `${loggedIn}, but ${account.mailbox} does not open: ${problem}`,
        {
          fix: `check ${section}.mailbox`,
        },
      );
    }
    return verdict(
      "email",
      "ok",
      `${loggedIn}; ${account.mailbox} holds ${messages} mail${messages === 1 ? "" : "s"}`,
    );
  } finally {
    if (client.usable) await client.logout().catch(() => client.close());
    else client.close();
  }
}

/** SMTP: its password (when a user is set), a connection and the login. */
async function smtpVerdict(smtp: EmailSection["smtp"], reading: SecretReading): Promise<Verdict> {
  const section = "channels.email.smtp";
  let password = "";
  if (smtp.user) {
    const secret = await readSecret(
      { check: "email", section, entry: smtp as SecretEntry, key: "password", what: "password" },
      reading,
    );
    if ("failed" in secret) return secret.failed;
    password = secret.value;
  }
  const { SmtpSender } = await import("../channels/email/smtp_sender.ts");
  const sender = new SmtpSender({
    ...smtp,
    password: () => Promise.resolve(password),
    timeoutMs: reading.timeoutMs,
  });
  try {
    await sender.verify();
    return verdict(
      "email",
      "ok",
      `SMTP: ${smtp.host}:${smtp.port} ` +
        (smtp.user
          ? `accepts the login of ${smtp.user}`
          : "answers (no login: smtp.user is empty)"),
    );
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    const fix = code === "EAUTH"
      ? (smtp.user
        ? `check ${section}.user and its password`
        : `the server wants a login: set ${section}.user and a password`)
      : code === "ETLS" || /tls|ssl|certificate/i.test(String(error))
      ? `check ${section}.tls (implicit for port 465, starttls for 587) and port`
      : `check ${section}.host, port and tls (and that the server runs)`;
    return verdict("email", "fail", firstLine(error, 300), { fix });
  } finally {
    sender.close();
  }
}
