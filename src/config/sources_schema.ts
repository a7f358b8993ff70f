/** `email:` and `calendar:` — the heartbeat's inbox and calendar sources (off until configured). */
import { z } from "zod";

const positiveInt = z.number().int().positive();

/**
 * An OS keychain item holding the password: macOS Keychain (`security`) or the Linux Secret
 * Service (`secret-tool`). Asked when needed, never stored in the database.
 */
export const keychainItem = z.object({
  service: z.string().min(1).max(200),
  account: z.string().min(1).max(200),
}).strict();

const passwordSources = (
  entry: { password_cmd: string; password_env: string; keychain?: unknown },
) =>
  [entry.password_cmd !== "", entry.password_env !== "", entry.keychain !== undefined]
    .filter(Boolean).length;

/** One IMAP account. The password comes from `password_cmd` or `password_env`, never the file. */
export const emailAccount = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "expected a short name (letters, digits, _ -)"),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(993),
  /** implicit (IMAPS, 993), starttls (143) or none (plain text: only to a loopback host). */
  tls: z.enum(["implicit", "starttls", "none"]).default("implicit"),
  user: z.string().min(1),
  /** A command printing the password, run without a shell, e.g. "pass show mail/work". */
  password_cmd: z.string().default(""),
  /** Or the name of an environment variable holding it. */
  password_env: z.string().default(""),
  /** Or the OS keychain item holding it. */
  keychain: keychainItem.optional(),
  mailbox: z.string().default("INBOX"),
  /** Urgent mail wakes the heartbeat during quiet hours. */
  urgent: z.boolean().default(false),
}).refine((account) => passwordSources(account) === 1, {
  message: "set exactly one of password_cmd, password_env or keychain",
});

/** `email:` accounts polled for new unread mail. */
export const emailSection = z.object({
  accounts: z.array(emailAccount).default([]),
  check_every_minutes: positiveInt.default(5),
  /**
   * While `radar serve` runs, keep one connection per account in IMAP IDLE (when the server
   * offers it) so new mail is announced at once; polling goes on as the fallback.
   */
  idle: z.boolean().default(true),
  /** Seconds for connecting, logging in and each command (and for password_cmd). */
  timeout_seconds: z.number().positive().default(20),
  /** read_email returns at most this many characters of a message's text. */
  max_body_chars: positiveInt.default(8000),
});

/** One calendar: an .ics file or http(s) URL, or a CalDAV collection (or server). */
export const calendarEntry = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "expected a short name (letters, digits, _ -)"),
  /** A path (~ allowed) or http(s) URL of an .ics file. */
  ics: z.string().default(""),
  /** A CalDAV server or calendar URL. */
  caldav_url: z.string().default(""),
  user: z.string().default(""),
  password_cmd: z.string().default(""),
  password_env: z.string().default(""),
  keychain: keychainItem.optional(),
}).refine((entry) => (entry.ics === "") !== (entry.caldav_url === ""), {
  message: "set exactly one of ics or caldav_url",
}).refine((entry) => passwordSources(entry) <= 1, {
  message: "set at most one of password_cmd, password_env or keychain",
});

/** `calendar:` calendars read for reminders and the calendar tool. */
export const calendarSection = z.object({
  calendars: z.array(calendarEntry).default([]),
  remind_minutes_before: z.number().int().min(0).max(10080).default(15),
  check_every_minutes: positiveInt.default(15),
  timeout_seconds: z.number().positive().default(20),
});
