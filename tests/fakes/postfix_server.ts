/**
 * A real Postfix (Debian's `postfix`) for tests: its own configuration, queue and data folders in
 * a temp folder, listening on 127.0.0.1 on a free port, accepting mail for one domain from
 * loopback without a login (with `saslSocket`, a login is offered and checked against Dovecot's
 * users) and delivering it (the `virtual` agent) into the maildirs Dovecot serves
 * (`<mailDir>/<user>/`), so mail Radar sends is read back over IMAP. Postfix's master
 * refuses to run for anyone but root, so the tests that start one run as root only.
 */
import { findProgram } from "../../scripts/system_parts.ts";
import { freePort } from "./dovecot_server.ts";

/** A running Postfix. */
export interface PostfixServer {
  port: number;
  /** Its log (the `maillog_file`), for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

/** What the Postfix delivers. */
export interface PostfixOptions {
  /** Mail for `<user>@<domain>` goes to `<mailDir>/<user>/` (a maildir). */
  domain: string;
  users: readonly string[];
  mailDir: string;
  /** The owner of the maildirs (Dovecot's mail user). */
  mailUid: number;
  mailGid: number;
  /** Dovecot's SASL socket: Postfix then offers AUTH and checks logins against its users. */
  saslSocket?: string;
}

/** The master.cf of a loopback-only Postfix: one smtpd on `port` and the daemons delivery needs. */
function masterCf(port: number): string {
  const services = [
    `127.0.0.1:${port} inet n - n - - smtpd`,
    "pickup unix n - n 60 1 pickup",
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "showq unix n - n - - showq",
    "error unix - - n - - error",
    "retry unix - - n - - error",
    "discard unix - - n - - discard",
    "virtual unix - n n - - virtual",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
  ];
  return services.join("\n") + "\n";
}

/** Starts Postfix; throws one line with its log when it does not come up. */
export async function startPostfix(options: PostfixOptions): Promise<PostfixServer> {
  const postfix = findProgram("postfix");
  if (!postfix) throw new Error("postfix is not installed");
  const dir = await Deno.makeTempDir({ prefix: "radar-postfix-" });
  await Deno.chmod(dir, 0o755);
  const port = freePort();
  const owner = passwdUid("postfix");
  for (const folder of ["conf", "queue", "data"]) await Deno.mkdir(`${dir}/${folder}`);
  await Deno.chown(`${dir}/data`, owner, null);
  await Deno.writeTextFile(
    `${dir}/conf/main.cf`,
    [
      "compatibility_level = 3.6",
      `queue_directory = ${dir}/queue`,
      `data_directory = ${dir}/data`,
      "mail_owner = postfix",
      `myhostname = mx.${options.domain}`,
      `mydomain = ${options.domain}`,
      `myorigin = ${options.domain}`,
      "mydestination =",
      "inet_interfaces = 127.0.0.1",
      "inet_protocols = ipv4",
      "mynetworks = 127.0.0.0/8",
      "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination",
      "relay_domains =",
      "alias_maps =",
      "alias_database =",
      "local_recipient_maps =",
      `virtual_mailbox_domains = ${options.domain}`,
      `virtual_mailbox_base = ${options.mailDir}`,
      `virtual_mailbox_maps = texthash:${dir}/conf/mailboxes`,
      "virtual_minimum_uid = 1",
      `virtual_uid_maps = static:${options.mailUid}`,
      `virtual_gid_maps = static:${options.mailGid}`,
      `maillog_file = ${dir}/postfix.log`,
      `maillog_file_prefixes = ${dir}`,
      ...(options.saslSocket
        ? [
          "smtpd_sasl_auth_enable = yes",
          "smtpd_sasl_type = dovecot",
          `smtpd_sasl_path = ${options.saslSocket}`,
        ]
        : []),
      "smtputf8_enable = no",
      "biff = no",
      "",
    ].join("\n"),
  );
  await Deno.writeTextFile(
    `${dir}/conf/mailboxes`,
    options.users.map((user) => `${user}@${options.domain} ${user}/\n`).join(""),
  );
  await Deno.writeTextFile(`${dir}/conf/master.cf`, masterCf(port));
  const log = () => {
    try {
      return Deno.readTextFileSync(`${dir}/postfix.log`);
    } catch {
      return "";
    }
  };
  const run = async (action: string) => {
    const output = await new Deno.Command(postfix, {
      args: ["-c", `${dir}/conf`, action],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return output.code;
  };
  if (await run("start") !== 0) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new Error(`postfix did not start: ${log().split("\n").slice(-5).join(" | ")}`);
  }
  const started = Date.now();
  for (;;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      if (Date.now() - started > 15_000) {
        await run("stop");
        throw new Error(
          `postfix does not listen on ${port}: ${log().split("\n").slice(-5).join(" | ")}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    port,
    log,
    async stop() {
      await run("stop");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

function passwdUid(name: string): number {
  for (const line of Deno.readTextFileSync("/etc/passwd").split("\n")) {
    const fields = line.split(":");
    if (fields[0] === name) return Number(fields[2]);
  }
  throw new Error(`no user ${name} in /etc/passwd`);
}
