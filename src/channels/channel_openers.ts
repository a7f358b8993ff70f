/**
 * How each configured channel is opened: its secret read (a value, `<key>_cmd`, `<key>_env` or
 * the keychain) and its library loaded by a literal `import()` here, at first use, so an
 * unconfigured channel costs nothing and `deno compile` still embeds what a configured one needs.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { ChannelName } from "../core/channel.ts";
import type { SecretKeeper } from "../core/secrets.ts";
import { hasSecret, readChannelSecret, type SecretEntry } from "./channel_secret.ts";
import type { ChannelOpener } from "./channel_runtime.ts";

/** What opening needs. */
export interface OpenerOptions {
  env: Record<string, string | undefined>;
  secrets: SecretKeeper;
  /** Whose Matrix invitations are accepted (the owner's identities now). */
  isMatrixOwner: (userId: string) => boolean;
  /** Logged for mail that is not the owner's. */
  onUntrustedMail: (from: string, reason: string) => void;
  fetch?: typeof fetch;
}

/** The openers of the configured channels. */
export function channelOpeners(
  config: RadarConfig,
  options: OpenerOptions,
): Partial<Record<ChannelName, ChannelOpener>> {
  const { telegram, matrix, email } = config.channels;
  const secretOptions = { env: options.env, secrets: options.secrets, timeoutMs: 20_000 };
  const openers: Partial<Record<ChannelName, ChannelOpener>> = {};
  if (telegram) {
    openers.telegram = async () => {
      const token = await readChannelSecret(
        telegram as SecretEntry,
        "token",
        "channels.telegram token",
        secretOptions,
      );
      options.secrets.learn(token);
      const { openTelegramChannel } = await import("./telegram/telegram_channel.ts");
      return await openTelegramChannel({
        token,
        apiRoot: telegram.api_root,
        pollSeconds: telegram.poll_seconds,
        fetch: options.fetch,
      });
    };
  }
  if (matrix) {
    openers.matrix = async () => {
      const entry = matrix as SecretEntry;
      const byPassword = hasSecret(entry, "password", false);
      const secret = await readChannelSecret(
        entry,
        byPassword ? "password" : "access_token",
        `channels.matrix ${byPassword ? "password" : "access token"}`,
        secretOptions,
        !byPassword,
      );
      options.secrets.learn(secret);
      const { openMatrixChannel } = await import("./matrix/matrix_channel.ts");
      return await openMatrixChannel({
        homeserver: matrix.homeserver,
        userId: matrix.user_id,
        ...(byPassword ? { password: secret } : { accessToken: secret }),
        deviceId: matrix.device_id,
        pollSeconds: matrix.poll_seconds,
        mayInvite: options.isMatrixOwner,
        fetch: options.fetch,
      });
    };
  }
  if (email) {
    openers.email = async () => {
      const account = config.email.accounts.find((entry) => entry.name === email.account);
      if (!account) {
        throw new Error(`channels.email.account names no email account "${email.account}"`);
      }
      const { EmailChannel } = await import("./email/email_channel.ts");
      const { SmtpSender } = await import("./email/smtp_sender.ts");
      const timeoutMs = config.email.timeout_seconds * 1000;
      const smtp = email.smtp;
      return new EmailChannel({
        account,
        imap: { env: options.env, timeoutMs, secrets: options.secrets },
        smtp: new SmtpSender({
          ...smtp,
          password: () =>
            readChannelSecret(
              smtp as SecretEntry,
              "password",
              "channels.email.smtp password",
              secretOptions,
            ),
          timeoutMs,
        }),
        allowedSenders: email.allowed_senders,
        authservId: email.authserv_id,
        pollSeconds: email.poll_seconds,
        maxMessageBytes: config.channels.max_attachment_mib * 1024 * 1024 * 1.4,
        onUntrusted: options.onUntrustedMail,
      });
    };
  }
  return openers;
}
