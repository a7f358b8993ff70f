/**
 * The MailReader and CalendarReader ports for the configured accounts and calendars (undefined
 * when none are configured, so their tools are not offered). The IMAP, CalDAV and iCalendar
 * packages load on first use, not when a command starts.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { CalendarReader, MailReader } from "../core/source_ports.ts";

type Environment = Record<string, string | undefined>;

function lazily<Module>(url: URL): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => loading ??= import(url.href) as Promise<Module>;
}

/** The mail reader of `email.accounts`, loading imapflow on first use. */
export function mailReaderFor(config: RadarConfig, env: Environment): MailReader | undefined {
  const { accounts, timeout_seconds, max_body_chars } = config.email;
  if (!accounts.length) return undefined;
  const load = lazily<typeof import("./email/imap_mail_reader.ts")>(
    new URL("./email/imap_mail_reader.ts", import.meta.url),
  );
  let reader: MailReader | undefined;
  const open = async () =>
    reader ??= new (await load()).ImapMailReader(accounts, {
      env,
      timeoutMs: timeout_seconds * 1000,
      maxBodyChars: max_body_chars,
    });
  return {
    accounts: () => accounts.map((account) => account.name),
    list: async (account, options, signal) => (await open()).list(account, options, signal),
    read: async (account, uid, signal) => (await open()).read(account, uid, signal),
    markRead: async (account, uid, signal) => (await open()).markRead(account, uid, signal),
  };
}

/** The calendar reader of `calendar.calendars`, loading tsdav and ical.js on first use. */
export function calendarReaderFor(
  config: RadarConfig,
  env: Environment,
  fetcher: typeof fetch,
): CalendarReader | undefined {
  const { calendars, timeout_seconds } = config.calendar;
  if (!calendars.length) return undefined;
  const load = lazily<typeof import("./calendar/calendar_reader.ts")>(
    new URL("./calendar/calendar_reader.ts", import.meta.url),
  );
  let reader: CalendarReader | undefined;
  const open = async () =>
    reader ??= new (await load()).ConfiguredCalendars(calendars, {
      env,
      timeoutMs: timeout_seconds * 1000,
      fetch: fetcher,
    });
  return {
    calendars: () => calendars.map((entry) => entry.name),
    writable: () => calendars.filter((entry) => entry.caldav_url).map((entry) => entry.name),
    occurrences: async (from, to, signal) => (await open()).occurrences(from, to, signal),
    add: async (calendar, event, signal) => (await open()).add(calendar, event, signal),
  };
}
