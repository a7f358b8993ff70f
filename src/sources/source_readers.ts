/**
 * The MailReader and CalendarReader ports for the configured accounts and calendars (undefined
 * when none are configured, so their tools are not offered). A reader connects on first use.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { CalendarReader, MailReader } from "../core/source_ports.ts";
import { ImapMailReader } from "./email/imap_mail_reader.ts";
import { ConfiguredCalendars } from "./calendar/calendar_reader.ts";

type Environment = Record<string, string | undefined>;

/** The mail reader of `email.accounts`, connecting on first use. */
export function mailReaderFor(config: RadarConfig, env: Environment): MailReader | undefined {
  const { accounts, timeout_seconds, max_body_chars } = config.email;
  if (!accounts.length) return undefined;
  let reader: MailReader | undefined;
  const open = () =>
    reader ??= new ImapMailReader(accounts, {
      env,
      timeoutMs: timeout_seconds * 1000,
      maxBodyChars: max_body_chars,
    });
  return {
    accounts: () => accounts.map((account) => account.name),
    list: (account, options, signal) => open().list(account, options, signal),
    read: (account, uid, signal) => open().read(account, uid, signal),
    markRead: (account, uid, signal) => open().markRead(account, uid, signal),
  };
}

/** The calendar reader of `calendar.calendars`, opened on first use. */
export function calendarReaderFor(
  config: RadarConfig,
  env: Environment,
  fetcher: typeof fetch,
): CalendarReader | undefined {
  const { calendars, timeout_seconds } = config.calendar;
  if (!calendars.length) return undefined;
  let reader: CalendarReader | undefined;
  const open = () =>
    reader ??= new ConfiguredCalendars(calendars, {
      env,
      timeoutMs: timeout_seconds * 1000,
      fetch: fetcher,
    });
  return {
    calendars: () => calendars.map((entry) => entry.name),
    writable: () => calendars.filter((entry) => entry.caldav_url).map((entry) => entry.name),
    occurrences: (from, to, signal) => open().occurrences(from, to, signal),
    add: (calendar, event, signal) => open().add(calendar, event, signal),
  };
}
