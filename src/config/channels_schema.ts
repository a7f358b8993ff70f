/**
 * `channels:` — Telegram, Matrix and email as two-way chats with Radar (off until configured).
 * Every secret is a plain value or, like email accounts' passwords, `<key>_cmd`, `<key>_env` or
 * `keychain`.
 */
import { z } from "zod";
import { keychainItem } from "./sources_schema.ts";

const httpUrl = z.url({ protocol: /^https?$/ });

/** The ways to give one secret (`what`, as people call it): the value, a command, a variable. */
function secretKeys<Key extends string>(key: Key, what: string) {
  return {
    [key]: z.string().default("").describe(`The ${what} itself (better: one of the next two).`),
    [`${key}_cmd`]: z.string().default("").describe(
      `A command printing the ${what}, run without a shell, e.g. "pass show radar/${key}".`,
    ),
    [`${key}_env`]: z.string().default("").describe(
      `Or the name of an environment variable holding the ${what}.`,
    ),
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
  ...secretKeys("token", "bot token from @BotFather"),
  keychain: keychainItem.optional().describe("Or the OS keychain item holding the bot token."),
  api_root: httpUrl.default("https://api.telegram.org").describe(
    "The Bot API server: a self-hosted one instead of Telegram's.",
  ),
  allowed_users: z.array(z.number().int().positive()).max(50).default([]).describe(
    "Telegram user ids that are the owner (besides those paired with `radar channel pair telegram`).",
  ),
  poll_seconds: z.number().int().min(0).max(50).default(30).describe(
    "Seconds one getUpdates long poll waits for news.",
  ),
}).strict().refine(telegramSecret.check, { message: telegramSecret.message })
  .describe("A Telegram bot as a chat with Radar.");

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
  homeserver: httpUrl.describe('The homeserver\'s URL, e.g. `"https://matrix.example.org"`.'),
  user_id: z.string().regex(/^@[^:\s]+:\S+$/, "expected a Matrix user id like @radar:example.org")
    .describe('Radar\'s own account, e.g. `"@radar:example.org"`.'),
  ...secretKeys("access_token", "access token of Radar's account"),
  ...secretKeys("password", "password of Radar's account (Radar logs in at start)"),
  keychain: keychainItem.optional().describe("Or the OS keychain item holding the access token."),
  device_id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/).default("RADAR").describe(
    "The device a password login uses (the same one every start).",
  ),
  allowed_users: z.array(z.string().regex(/^@[^:\s]+:\S+$/)).max(50).default([]).describe(
    "Matrix user ids that are the owner (besides those paired with `radar channel pair matrix`).",
  ),
  poll_seconds: z.number().int().min(0).max(120).default(30).describe(
    "Seconds one /sync long poll waits for news.",
  ),
}).strict().refine(matrixSecret.check, { message: matrixSecret.message })
  .describe("A Matrix account as a chat with Radar (unencrypted rooms).");

const smtpSecret = oneSecret("password", false);

/** `channels.email.smtp`: where Radar sends its answers. */
const smtpServer = z.object({
  host: z.string().min(1).describe("The SMTP server."),
  port: z.number().int().min(1).max(65535).default(587).describe("Its port."),
  tls: z.enum(["implicit", "starttls", "none"]).default("starttls").describe(
    "implicit (465), starttls (587) or none (plain text: only to a loopback host).",
  ),
  user: z.string().default("").describe(
    "The login; empty: none (a relay that trusts this machine).",
  ),
  ...secretKeys("password", "SMTP password"),
  keychain: keychainItem.optional().describe("Or the OS keychain item holding the SMTP password."),
  from: z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/, "expected an address like radar@example.org")
    .describe("The From address of Radar's mail."),
}).strict().refine(smtpSecret.check, { message: smtpSecret.message })
  .describe("Where Radar sends its answers.");

/** `channels.email`: mail to and from the owner, read from one of `email.accounts`. */
export const emailChannel = z.object({
  account: z.string().min(1).describe("The `email.accounts` entry whose mailbox Radar reads."),
  smtp: smtpServer,
  allowed_senders: z.array(z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/)).min(1).max(50).describe(
    "The owner's addresses: their mail counts only when DKIM or SPF passed for them.",
  ),
  authserv_id: z.string().default("").describe(
    "Your receiving server's name in its Authentication-Results header; empty: the topmost header counts.",
  ),
  poll_seconds: z.number().int().min(1).max(3600).default(60).describe(
    "Seconds between looks at the mailbox.",
  ),
}).strict().describe("Mail to and from the owner, read from one of `email.accounts`.");

/** `channels:` the chat channels, each off until its section is there. */
export const channelsSection = z.object({
  telegram: telegramChannel.optional(),
  matrix: matrixChannel.optional(),
  email: emailChannel.optional(),
  inbox: z.string().default("").describe(
    "Where files sent to Radar land (empty: `<data>/inbox`); handled like a watched folder's.",
  ),
  max_attachment_mib: z.number().positive().max(200).default(40).describe(
    "Larger files sent to Radar are refused (and the sender is told).",
  ),
}).describe("Talk to Radar from your phone: Telegram, Matrix and email (docs/channels.md).");

/** Where `notify`, reminders and approval questions go. */
export const notificationTargets = z.array(z.enum(["ntfy", "telegram", "matrix", "email"]))
  .max(4).default(["ntfy"]).describe(
    "Where notices go: ntfy and any configured chat channel (heartbeat findings, reminders, approvals).",
  );
