/**
 * A real Dovecot IMAP server for tests: started on 127.0.0.1 on a free port with a temp config
 * (passwd-file users, maildir in the temp folder, plain text allowed: loopback only), stopped by
 * `stop()`. Mail is delivered with IMAP APPEND. Tests that start one declare `Deno.test(needing(["dovecot"], …))`.
 */
import { ImapFlow } from "imapflow";
import { findProgram } from "../../scripts/system_parts.ts";

/** The dovecot binary, when installed. */
export function dovecotPath(): string | undefined {
  return findProgram("dovecot");
}

/** A running Dovecot. */
export interface DovecotServer {
  port: number;
  dir: string;
  /** Its SASL socket (started with `smtpAuth`): Postfix checks SMTP logins against its users. */
  authSocket?: string;
  /** Appends a raw RFC 822 message to the user's INBOX (unread unless `seen`). */
  deliver(user: string, password: string, message: string, seen?: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function passwdEntry(
  match: (fields: string[]) => boolean,
): { name: string; uid: number; gid: number } {
  for (const line of Deno.readTextFileSync("/etc/passwd").split("\n")) {
    const fields = line.split(":");
    if (fields.length > 3 && match(fields)) {
      return { name: fields[0], uid: Number(fields[2]), gid: Number(fields[3]) };
    }
  }
  throw new Error("no matching user in /etc/passwd");
}

/** Starts Dovecot with `users` (name → password); `smtpAuth`: also its SASL socket for Postfix. */
export async function startDovecot(
  users: Record<string, string>,
  options: { smtpAuth?: boolean } = {},
): Promise<DovecotServer> {
  const binary = dovecotPath();
  if (!binary) throw new Error("dovecot is not installed");
  const dir = await Deno.makeTempDir({ prefix: "radar-dovecot-" });
  await Deno.chmod(dir, 0o755);
  const port = freePort();
  const root = Deno.uid() === 0;
  const me = passwdEntry((fields) => Number(fields[2]) === Deno.uid());
  // Dovecot refuses to run its login process or mail access as root.
  const mailUser = root ? passwdEntry((fields) => fields[0] === "dovecot") : me;
  const loginUser = root ? passwdEntry((fields) => fields[0] === "dovenull") : me;
  await Deno.mkdir(`${dir}/mail`);
  await Deno.mkdir(`${dir}/run`);
  if (root) await Deno.chown(`${dir}/mail`, mailUser.uid, mailUser.gid);
  await Deno.writeTextFile(
    `${dir}/users`,
    Object.entries(users).map(([name, password]) => `${name}:{PLAIN}${password}\n`).join(""),
  );
  await Deno.writeTextFile(
    `${dir}/dovecot.conf`,
    `first_valid_uid = 1
base_dir = ${dir}/run
state_dir = ${dir}/run
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${mailUser.name}
default_internal_group = ${root ? "dovecot" : me.name}
default_login_user = ${loginUser.name}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
${
      options.smtpAuth
        ? `service auth {
  unix_listener ${dir}/run/auth-smtp {
    mode = 0666
  }
}
`
        : ""
    }`,
  );
  const child = new Deno.Command(binary, {
    args: ["-F", "-c", `${dir}/dovecot.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const started = Date.now();
  for (;;) {
    try {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      connection.close();
      break;
    } catch {
      if (Date.now() - started > 10_000) {
        child.kill("SIGKILL");
        throw new Error(`dovecot did not start: ${await stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    port,
    dir,
    ...(options.smtpAuth ? { authSocket: `${dir}/run/auth-smtp` } : {}),
    async deliver(user, password, message, seen = false) {
      const client = new ImapFlow({
        host: "127.0.0.1",
        port,
        secure: false,
        doSTARTTLS: false,
        auth: { user, pass: password },
        logger: false,
      });
      await client.connect();
      await client.append("INBOX", message.replace(/\r?\n/g, "\r\n"), seen ? ["\\Seen"] : []);
      await client.logout();
    },
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await stderr;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A small RFC 822 message. */
export function mailMessage(options: {
  from: string;
  subject: string;
  date?: string;
  body?: string;
  html?: string;
}): string {
  const head = `From: ${options.from}\nTo: alice@example.test\nSubject: ${options.subject}\n` +
    `Date: ${
      options.date ?? "Mon, 23 Nov 2026 10:00:00 +0000"
    }\nMessage-ID: <${crypto.randomUUID()}@test>\n` +
    `MIME-Version: 1.0\n`;
  if (options.html) {
    return `${head}Content-Type: text/html; charset=utf-8\n\n${options.html}\n`;
  }
  return `${head}Content-Type: text/plain; charset=utf-8\n\n${options.body ?? "Hello."}\n`;
}
