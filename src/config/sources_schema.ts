/** `email:` and `calendar:` — the heartbeat's inbox and calendar sources (off until configured). */
import { z } from "zod";

const positiveInt = z.number().int().positive();

/**
 * An OS keychain item holding the password: macOS Keychain (`security`) or the Linux Secret
 * Service (`secret-tool`). Asked when needed, never stored in the database.
 */
export const keychainItem = z.object({
  service: z.string().min(1).max(200).describe("The keychain item's service."),
  account: z.string().min(1).max(200).describe("The keychain item's account."),
}).strict();

const passwordSources = (
  entry: { password_cmd: string; password_env: string; keychain?: unknown },
) =>
  [entry.password_cmd !== "", entry.password_env !== "", entry.keychain !== undefined]
    .filter(Boolean).length;

/** One IMAP account. The password comes from `password_cmd` or `password_env`, never the file. */
export const emailAccount = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "expected a short name (letters, digits, _ -)")
    .describe("A short name (letters, digits, _ -)."),
  host: z.string().min(1).describe("The IMAP server."),
  port: z.number().int().min(1).max(65535).default(993).describe("The IMAP port."),
  tls: z.enum(["implicit", "starttls", "none"]).default("implicit").describe(
    "`implicit` (IMAPS, 993), `starttls` (143) or `none` (plain text: only to a loopback host).",
  ),
  user: z.string().min(1).describe("The login name."),
  password_cmd: z.string().default("").describe(
    'A command printing the password, run without a shell, e.g. `"pass show mail/work"` (first line of its output).',
  ),
  password_env: z.string().default("").describe(
    "Or the name of an environment variable holding it.",
  ),
  keychain: keychainItem.optional().describe(
    "Or the OS keychain item holding it: macOS Keychain (`security`) or the Linux Secret Service (`secret-tool`).",
  ),
  mailbox: z.string().default("INBOX").describe("The mailbox watched."),
  urgent: z.boolean().default(false).describe(
    "New mail wakes the heartbeat during quiet hours.",
  ),
}).refine((account) => passwordSources(account) === 1, {
  message: "set exactly one of password_cmd, password_env or keychain",
});

/** `email:` accounts polled for new unread mail. */
export const emailSection = z.object({
  accounts: z.array(emailAccount).default([]).describe(
    "IMAP accounts; the password comes from `password_cmd`, `password_env` or `keychain` (exactly one), never the file.",
  ),
  check_every_minutes: positiveInt.default(5).describe(
    "Minutes between checks; failures back off exponentially (shown in `radar status`).",
  ),
  idle: z.boolean().default(true).describe(
    "While `radar serve` runs, keep one connection per account in IMAP IDLE (when the server offers it) so new mail is announced at once; polling goes on as the fallback.",
  ),
  timeout_seconds: z.number().positive().default(20).describe(
    "Seconds for connecting, logging in and each command (and for `password_cmd`).",
  ),
  max_body_chars: positiveInt.default(8000).describe(
    "`read_email` returns at most this many characters of a message's text.",
  ),
}).describe(
  "IMAP inboxes: new unread mail becomes heartbeat events (sender, subject, date; never bodies).",
);

/** One calendar: an .ics file or http(s) URL, or a CalDAV collection (or server). */
export const calendarEntry = z.object({
  name: z.string().regex(/^[a-z0-9_-]{1,40}$/i, "expected a short name (letters, digits, _ -)")
    .describe("A short name (letters, digits, _ -)."),
  ics: z.string().default("").describe("A path (`~` allowed) or http(s) URL of an .ics file."),
  caldav_url: z.string().default("").describe(
    "Or a CalDAV server or calendar URL (https, or http to a loopback host); events can be added there.",
  ),
  user: z.string().default("").describe("The CalDAV login name."),
  password_cmd: z.string().default("").describe(
    "A command printing the password, run without a shell.",
  ),
  password_env: z.string().default("").describe(
    "Or the name of an environment variable holding it.",
  ),
  keychain: keychainItem.optional().describe("Or the OS keychain item holding it."),
}).refine((entry) => (entry.ics === "") !== (entry.caldav_url === ""), {
  message: "set exactly one of ics or caldav_url",
}).refine((entry) => passwordSources(entry) <= 1, {
  message: "set at most one of password_cmd, password_env or keychain",
});

/** `calendar:` calendars read for reminders and the calendar tool. */
export const calendarSection = z.object({
  calendars: z.array(calendarEntry).default([]).describe(
    "Calendars: each has exactly one of `ics` and `caldav_url`.",
  ),
  remind_minutes_before: z.number().int().min(0).max(10080).default(15).describe(
    "One reminder event per event instance, this many minutes before it starts.",
  ),
  check_every_minutes: positiveInt.default(15).describe("Minutes between reads."),
  timeout_seconds: z.number().positive().default(20).describe("Seconds for one read."),
}).describe(
  ".ics files and URLs and CalDAV calendars: reminders before events, the `calendar` tool.",
);
