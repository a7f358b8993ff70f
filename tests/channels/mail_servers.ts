/**
 * Dovecot and Postfix together for the email channel's tests: Radar's mailbox and the owner's on
 * one Dovecot, Postfix on loopback delivering `<user>@example.test` into them. Mail "from the
 * owner" is put into Radar's mailbox as the receiving server leaves it (with its
 * Authentication-Results header on top); mail Radar sends goes through Postfix and is read back
 * from the owner's mailbox over IMAP.
 */
import { ImapFlow } from "imapflow";
import type { MachineCondition } from "../helpers/system_parts.ts";
import { type DovecotServer, startDovecot } from "../fakes/dovecot_server.ts";
import { type PostfixServer, startPostfix } from "../fakes/postfix_server.ts";

/** Postfix's master refuses to start for anyone but root. */
export const asRoot: MachineCondition = {
  holds: Deno.uid() === 0,
  unless: "runs only as root: Postfix's master refuses to start for other users",
};

/** The mailbox passwords. */
export const passwords = { radar: "radar-imap-pw", owner: "owner-imap-pw" };

/** Both servers. */
export interface MailServers {
  dovecot: DovecotServer;
  postfix: PostfixServer;
  stop(): Promise<void>;
}

/**
 * Starts Dovecot (users radar and owner) and a Postfix delivering into their maildirs;
 * `smtpAuth`: Postfix also offers AUTH, checked against Dovecot's users.
 */
export async function startMailServers(options: { smtpAuth?: boolean } = {}): Promise<MailServers> {
  const dovecot = await startDovecot(passwords, options);
  try {
    const mail = Deno.statSync(`${dovecot.dir}/mail`);
    const postfix = await startPostfix({
      domain: "example.test",
      users: ["radar", "owner"],
      mailDir: `${dovecot.dir}/mail`,
      mailUid: mail.uid!,
      mailGid: mail.gid!,
      saslSocket: dovecot.authSocket,
    });
    return {
      dovecot,
      postfix,
      async stop() {
        await postfix.stop();
        await dovecot.stop();
      },
    };
  } catch (error) {
    await dovecot.stop();
    throw error;
  }
}

/** A mail from the owner as the receiving server leaves it in Radar's mailbox. */
export function ownerMail(options: {
  text: string;
  subject?: string;
  from?: string;
  /** The receiving server's Authentication-Results (default: DKIM pass for example.test). */
  authentication?: string | null;
  extraHeaders?: string;
  attachment?: { name: string; bytes: Uint8Array };
}): string {
  const from = options.from ?? "owner@example.test";
  const authentication = options.authentication === undefined
    ? "mx.example.test; dkim=pass header.d=example.test header.s=mail; spf=pass smtp.mailfrom=owner@example.test"
    : options.authentication;
  const head = [
    ...(authentication === null ? [] : [`Authentication-Results: ${authentication}`]),
    ...(options.extraHeaders ? [options.extraHeaders] : []),
    `From: Olive <${from}>`,
    "To: radar@example.test",
    `Subject: ${options.subject ?? "Hello Radar"}`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    `Message-ID: <${crypto.randomUUID()}@example.test>`,
    "MIME-Version: 1.0",
  ].join("\n");
  if (!options.attachment) {
    return `${head}\nContent-Type: text/plain; charset=utf-8\n\n${options.text}\n`;
  }
  const base64 = btoa(String.fromCharCode(...options.attachment.bytes));
  return `${head}\nContent-Type: multipart/mixed; boundary="b1"\n\n--b1\n` +
    `Content-Type: text/plain; charset=utf-8\n\n${options.text}\n--b1\n` +
    `Content-Type: application/pdf; name="${options.attachment.name}"\n` +
    `Content-Disposition: attachment; filename="${options.attachment.name}"\n` +
    `Content-Transfer-Encoding: base64\n\n${base64}\n--b1--\n`;
}

/** The mail in `user`'s INBOX, oldest first, as raw text (waits up to `timeoutMs` for `count`). */
export async function mailboxOf(
  dovecot: DovecotServer,
  user: keyof typeof passwords,
  count = 1,
  timeoutMs = 15_000,
): Promise<string[]> {
  const started = Date.now();
  for (;;) {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: dovecot.port,
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass: passwords[user] },
      logger: false,
    });
    await client.connect();
    const found: string[] = [];
    const lock = await client.getMailboxLock("INBOX");
    try {
      for await (const message of client.fetch("1:*", { source: true })) {
        found.push(new TextDecoder().decode(message.source));
      }
    } catch {
      /* an empty mailbox */
    } finally {
      lock.release();
      await client.logout();
    }
    if (found.length >= count || Date.now() - started > timeoutMs) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
