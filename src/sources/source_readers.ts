/**
 * The MailReader and CalendarReader ports for the configured accounts and calendars (undefined
 * when none are configured, so their tools are not offered). A reader connects on first use; its
 * module (imapflow, tsdav, ical.js) is imported then too, so a process that never reads mail or a
 * calendar never loads them (start-up time, idle memory). Likewise the GitHub lists over gh.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { CalendarReader, GitHubLists, MailReader } from "../core/source_ports.ts";
import type { SecretKeeper } from "../core/secrets.ts";
import type { ImapMailReader } from "./email/imap_mail_reader.ts";
import type { ConfiguredCalendars } from "./calendar/calendar_reader.ts";
import { usableGh } from "./github/find_gh.ts";

type Environment = Record<string, string | undefined>;

/** Opens the IMAP reader of `email.accounts` once, importing imapflow on the first call. */
export function lazyImapReader(
  config: RadarConfig,
  env: Environment,
  secrets: SecretKeeper,
): () => Promise<ImapMailReader> {
  const { accounts, timeout_seconds, max_body_chars } = config.email;
  const settings = {
    env,
    secrets,
    timeoutMs: timeout_seconds * 1000,
    maxBodyChars: max_body_chars,
  };
  let reader: Promise<ImapMailReader> | undefined;
  return () =>
    reader ??= imapMailReaderModule().then(({ ImapMailReader }) =>
      new ImapMailReader(accounts, settings)
    );
}

/** Opens `calendar.calendars` once, importing tsdav and ical.js on the first call. */
export function lazyCalendars(
  config: RadarConfig,
  env: Environment,
  fetcher: typeof fetch,
  secrets: SecretKeeper,
): () => Promise<ConfiguredCalendars> {
  const { calendars, timeout_seconds } = config.calendar;
  const settings = { env, timeoutMs: timeout_seconds * 1000, fetch: fetcher, secrets };
  let reader: Promise<ConfiguredCalendars> | undefined;
  return () =>
    reader ??= calendarReaderModule().then(({ ConfiguredCalendars }) =>
      new ConfiguredCalendars(calendars, settings)
    );
}

/** The mail reader of `email.accounts`, connecting on first use (passwords told `secrets`). */
export function mailReaderFor(
  config: RadarConfig,
  env: Environment,
  secrets: SecretKeeper,
): MailReader | undefined {
  const { accounts } = config.email;
  if (!accounts.length) return undefined;
  const open = lazyImapReader(config, env, secrets);
  return {
    accounts: () => accounts.map((account) => account.name),
    list: async (account, options, signal) => (await open()).list(account, options, signal),
    read: async (account, uid, signal) => (await open()).read(account, uid, signal),
    markRead: async (account, uid, signal) => (await open()).markRead(account, uid, signal),
  };
}

/** The calendar reader of `calendar.calendars`, opened on first use (passwords told `secrets`). */
export function calendarReaderFor(
  config: RadarConfig,
  env: Environment,
  fetcher: typeof fetch,
  secrets: SecretKeeper,
): CalendarReader | undefined {
  const { calendars } = config.calendar;
  if (!calendars.length) return undefined;
  const open = lazyCalendars(config, env, fetcher, secrets);
  return {
    calendars: () => calendars.map((entry) => entry.name),
    writable: () => calendars.filter((entry) => entry.caldav_url).map((entry) => entry.name),
    occurrences: async (from, to, signal) => (await open()).occurrences(from, to, signal),
    add: async (calendar, event, signal) => (await open()).add(calendar, event, signal),
  };
}

/** The reader over gh, loaded at run time by the `github` tool's first call. */
function githubAccessModule(): Promise<typeof import("./github/github_access.ts")> {
  return import(new URL("./github/github_access.ts", import.meta.url).href);
}

/** The IMAP mail reader, loaded at run time by the first mail read. */
function imapMailReaderModule(): Promise<typeof import("./email/imap_mail_reader.ts")> {
  return import(new URL("./email/imap_mail_reader.ts", import.meta.url).href);
}

/** The calendars' reader, loaded at run time by the first calendar read. */
function calendarReaderModule(): Promise<typeof import("./calendar/calendar_reader.ts")> {
  return import(new URL("./calendar/calendar_reader.ts", import.meta.url).href);
}

/**
 * The GitHub lists the `github` tool reads (none when GitHub is off or gh is not installed),
 * read through the gh found now; the reader's modules load with the first read.
 */
export function githubReaderFor(config: RadarConfig, env: Environment): GitHubLists | undefined {
  const gh = usableGh(config.github, env);
  if (!("path" in gh)) return undefined;
  let reader: Promise<GitHubLists> | undefined;
  const open = () =>
    reader ??= githubAccessModule().then(({ githubReaderAt }) =>
      githubReaderAt(gh.path, config, env)
    );
  return {
    notifications: async (signal) => (await open()).notifications(signal),
    reviewRequests: async (signal) => (await open()).reviewRequests(signal),
    failingPullRequests: async (signal) => (await open()).failingPullRequests(signal),
  };
}
