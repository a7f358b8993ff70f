/**
 * One short IMAP session per use (npm imapflow): connect, log in, run, log out. Every failure
 * becomes one readable line naming the account (connection refused, bad login, timeout, TLS).
 */
import { ImapFlow } from "imapflow";
import type { z } from "zod";
import type { emailAccount } from "../../config/sources_schema.ts";
import { redactText, type SecretKeeper } from "../../core/secrets.ts";
import { readPassword } from "../../adapters/os/account_secrets.ts";
import { isLoopbackHost } from "../../adapters/network/address_policy.ts";

/** One configured account. */
export type EmailAccount = z.output<typeof emailAccount>;

/** What opening a session needs. */
export interface ImapSettings {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** Told the password when it is read. */
  secrets: SecretKeeper;
}

/** A failure of an account, already phrased as one line. */
export class MailError extends Error {
  override name = "MailError";
}

/** Refuses plain text to a host that is not loopback (throws MailError). */
export function checkTransport(account: EmailAccount): void {
  if (account.tls === "none" && !isLoopbackHost(account.host)) {
    throw new MailError(
      `${account.name}: tls "none" is allowed only for a loopback host (use implicit or starttls)`,
    );
  }
}

/** The account's password (password_cmd, password_env or keychain) as a MailError on failure. */
export async function accountPassword(
  account: EmailAccount,
  settings: ImapSettings,
): Promise<string> {
  try {
    return await readPassword(account, `email account ${account.name}`, settings);
  } catch (error) {
    throw new MailError((error as Error).message);
  }
}

/** An imapflow client for `account` (not connected; auto-IDLE off unless `idle` options say). */
export function imapClient(
  account: EmailAccount,
  password: string,
  settings: ImapSettings,
  idle?: { maxIdleMs: number },
): ImapFlow {
  return new ImapFlow({
    host: account.host,
    port: account.port,
    secure: account.tls === "implicit",
    doSTARTTLS: account.tls === "starttls" ? true : account.tls === "none" ? false : undefined,
    auth: { user: account.user, pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    // An idling connection is quiet for minutes: IDLE restarts before imapflow's own watchdog.
    ...(idle ? { maxIdleTime: idle.maxIdleMs } : { socketTimeout: settings.timeoutMs }),
  });
}

/** Runs `work` in a logged-in session on `account`; throws MailError. */
export async function withImap<T>(
  account: EmailAccount,
  settings: ImapSettings,
  work: (client: ImapFlow) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  checkTransport(account);
  const password = await accountPassword(account, settings);
  const client = imapClient(account, password, settings);
  // A dropped connection emits "error"; without a listener it would crash the process.
  client.on("error", () => {});
  const abort = () => void client.close();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    await client.connect();
    return await work(client);
  } catch (error) {
    if (signal?.aborted) throw new MailError(`${account.name}: cancelled`);
    throw new MailError(describeImapError(account, error, password));
  } finally {
    signal?.removeEventListener("abort", abort);
    if (client.usable) await client.logout().catch(() => client.close());
    else client.close();
  }
}

/** One line for an imapflow or socket error; never the password. */
export function describeImapError(account: EmailAccount, error: unknown, password = ""): string {
  const where = `${account.host}:${account.port}`;
  const value = error as {
    code?: string;
    message?: string;
    authenticationFailed?: boolean;
    responseText?: string;
  };
  let reason: string;
  if (value.authenticationFailed || value.code === "AUTHENTICATIONFAILED") {
    reason = `login failed for ${account.user} at ${where} (wrong user or password)`;
  } else if (value.code === "ECONNREFUSED") {
    reason = `cannot connect to ${where}: connection refused`;
  } else if (value.code === "ENOTFOUND" || value.code === "EAI_AGAIN") {
    reason = `cannot resolve ${account.host}`;
  } else if (/TIMEOUT/i.test(value.code ?? "") || /timed? ?out/i.test(value.message ?? "")) {
    reason = `${where} did not answer in time`;
  } else if (/certificate|tls|ssl/i.test(`${value.code} ${value.message}`)) {
    reason = `TLS with ${where} failed: ${value.message}`;
  } else {
    reason = `${where}: ${value.responseText || value.message || String(error)}`;
  }
  return redactText(`${account.name}: ${reason}`.split("\n")[0].slice(0, 300), [password]);
}
