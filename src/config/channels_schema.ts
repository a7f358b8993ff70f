/**
 * `channels:` — Telegram, Matrix and email as two-way chats with Radar (off until configured).
 * Every secret is a plain value or, like email accounts' passwords, `<key>_cmd`, `<key>_env` or
 * `keychain`.
 */
import { z } from "zod";
import { keychainItem } from "./sources_schema.ts";

const httpUrl = z.url({ protocol: /^https?$/ });

/** The four ways to give one secret; at most one may be set. */
function secretKeys<Key extends string>(key: Key) {
  return {
    [key]: z.string().default(""),
    [`${key}_cmd`]: z.string().default(""),
    [`${key}_env`]: z.string().default(""),
  } as Record<Key | `${Key}_cmd` | `${Key}_env`, z.ZodDefault<z.ZodString>>;
}

/** How many of a secret's sources are set (the value, its command, its variable, the keychain). */
export function secretSourcesSet(entry: Record<string, unknown>, key: string): number {
  return [entry[key], entry[`${key}_cmd`], entry[`${key}_env`]].filter((value) => value !== "")
    .length + (entry.keychain !== undefined ? 1 : 0);
}

const oneSecret = (key: string, required: boolean) => ({
  check: (entry: Record<string, unknown>) => {
    const count = secretSourcesSet(entry, key);
    return required ? count === 1 : count <= 1;
  },
  message: `set ${required ? "exactly" : "at most"} one of ${key}, ${key}_cmd, ${key}_env or ` +
    "keychain",
});

const telegramSecret = oneSecret("token", true);

/** `channels.telegram`: a bot (from @BotFather). */
export const telegramChannel = z.object({
  ...secretKeys("token"),
  keychain: keychainItem.optional(),
  /** A self-hosted Bot API server (and the tests' stand-in). */
  api_root: httpUrl.default("https://api.telegram.org"),
  /** Telegram user ids that are the owner (besides those paired with `radar channel pair`). */
  allowed_users: z.array(z.number().int().positive()).max(50).default([]),
  /** Seconds one getUpdates long poll waits. */
  poll_seconds: z.number().int().min(0).max(50).default(30),
}).strict().refine(telegramSecret.check, { message: telegramSecret.message });

const matrixSecret = {
  check: (entry: Record<string, unknown>) =>
    secretSourcesSet({ ...entry, keychain: undefined }, "access_token") +
        secretSourcesSet({ ...entry, keychain: undefined }, "password") +
        (entry.keychain !== undefined ? 1 : 0) === 1,
  message: "set exactly one of access_token, access_token_cmd, access_token_env, password, " +
    "password_cmd, password_env or keychain (the access token)",
};

/** `channels.matrix`: an account on a homeserver. */
export const matrixChannel = z.object({
  homeserver: httpUrl,
  user_id: z.string().regex(/^@[^:\s]+:\S+$/, "expected a Matrix user id like @radar:example.org"),
  ...secretKeys("access_token"),
  /** Or log in with a password at start (the token then lives in memory only). */
  ...secretKeys("password"),
  keychain: keychainItem.optional(),
  /** The device a password login uses (the same one every start). */
  device_id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/).default("RADAR"),
  /** Matrix user ids that are the owner (besides those paired with `radar channel pair`). */
  allowed_users: z.array(z.string().regex(/^@[^:\s]+:\S+$/)).max(50).default([]),
  /** Seconds one /sync long poll waits. */
  poll_seconds: z.number().int().min(0).max(120).default(30),
}).strict().refine(matrixSecret.check, { message: matrixSecret.message });

const smtpSecret = oneSecret("password", false);

/** `channels.email.smtp`: where Radar sends its answers. */
const smtpServer = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(587),
  /** implicit (465), starttls (587) or none (plain text: only to a loopback host). */
  tls: z.enum(["implicit", "starttls", "none"]).default("starttls"),
  /** Empty: no login (a relay that trusts this machine). */
  user: z.string().default(""),
  ...secretKeys("password"),
  keychain: keychainItem.optional(),
  /** The From address of Radar's mail. */
  from: z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/, "expected an address like radar@example.org"),
}).strict().refine(smtpSecret.check, { message: smtpSecret.message });

/** `channels.email`: mail to and from the owner, read from one of `email.accounts`. */
export const emailChannel = z.object({
  /** The `email.accounts` entry whose mailbox Radar reads. */
  account: z.string().min(1),
  smtp: smtpServer,
  /** The owner's addresses: their mail is a command only when DKIM or SPF passed for them. */
  allowed_senders: z.array(z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/)).min(1).max(50),
  /**
   * The receiving server's authserv-id (the first word of its Authentication-Results header);
   * empty: the topmost Authentication-Results header counts.
   */
  authserv_id: z.string().default(""),
  /** Seconds between looks at the mailbox. */
  poll_seconds: z.number().int().min(1).max(3600).default(60),
}).strict();

/** `channels:` the chat channels, each off until its section is there. */
export const channelsSection = z.object({
  telegram: telegramChannel.optional(),
  matrix: matrixChannel.optional(),
  email: emailChannel.optional(),
  /** Where files sent to Radar land (empty: `<data>/inbox`); handled like a watched folder's. */
  inbox: z.string().default(""),
  /** Larger attachments are refused (and the sender told so). */
  max_attachment_mib: z.number().positive().max(200).default(40),
});

/** Where `notify`, reminders and approval questions go. */
export const notificationTargets = z.array(z.enum(["ntfy", "telegram", "matrix", "email"]))
  .max(4).default(["ntfy"]);
