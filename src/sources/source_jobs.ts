/** The daemon's tick jobs of the email and calendar sources (none when nothing is configured). */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import type { SecretKeeper } from "../core/secrets.ts";
import type { SourceStores } from "./source_stores.ts";
import type { TickJob } from "../core/work_ports.ts";
import { CalendarCheck, type OccurrenceReader } from "./calendar/calendar_check.ts";
import type { CalendarEntry, ConfiguredCalendars } from "./calendar/calendar_reader.ts";
import { EmailCheck, type OwnerMailFilter, type UnreadReader } from "./email/email_check.ts";
import type { ImapMailReader } from "./email/imap_mail_reader.ts";
import { checkDependencies, type EventSink } from "./source_checks.ts";
import { lazyCalendars, lazyImapReader } from "./source_readers.ts";

/** What the jobs need from the daemon. */
export interface SourceJobDependencies {
  config: RadarConfig;
  stores: SourceStores;
  queue: EventSink;
  clock: Clock;
  logger: Logger;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** Told every password the jobs read. */
  secrets: SecretKeeper;
  /**
   * The email channel's account and whether a header block is the owner's mail to it (taken by
   * the channel, so never an event); absent without an email channel.
   */
  channelMail?: { account: string; isOwner: (headers: Uint8Array) => Promise<boolean> };
}

/** The email check and the calendar reminders, as configured. */
export function sourceJobs(deps: SourceJobDependencies): TickJob[] {
  const { config } = deps;
  const env = deps.env ?? Deno.env.toObject();
  const common = checkDependencies(deps);
  const jobs: TickJob[] = [];
  if (config.email.accounts.length) {
    const open = lazyImapReader(config, env, deps.secrets);
    jobs.push(
      new EmailCheck({
        ...common,
        accounts: config.email.accounts,
        reader: unreadReader(open),
        ownerMail: deps.channelMail && ownerMailFilter(deps.channelMail, open),
        everyMinutes: config.email.check_every_minutes,
        timeZone: config.radar.timezone || undefined,
      }),
    );
  }
  if (config.calendar.calendars.length) {
    jobs.push(
      new CalendarCheck({
        ...common,
        reader: occurrenceReader(
          config.calendar.calendars,
          lazyCalendars(config, env, deps.fetch ?? globalThis.fetch, deps.secrets),
        ),
        everyMinutes: config.calendar.check_every_minutes,
        remindMinutesBefore: config.calendar.remind_minutes_before,
        timeZone: config.radar.timezone || undefined,
      }),
    );
  }
  return jobs;
}

/**
 * The IMAP reader of the email check; imapflow is imported at the first check, so a daemon
 * without email accounts never loads it (and one with accounts only when a check runs).
 */
function unreadReader(open: () => Promise<ImapMailReader>): UnreadReader {
  return {
    unread: async (account, signal) => (await open()).unread(account, signal),
    headers: async (account, uids, signal) => (await open()).headers(account, uids, signal),
  };
}

/** The email channel's mail among unseen UIDs, judged by each one's header block. */
function ownerMailFilter(
  channel: NonNullable<SourceJobDependencies["channelMail"]>,
  open: () => Promise<ImapMailReader>,
): OwnerMailFilter {
  return {
    account: channel.account,
    async owned(uids, signal) {
      const headers = await (await open()).rawHeaders(channel.account, uids, signal);
      const owned = new Set<number>();
      for (const [uid, head] of headers) if (await channel.isOwner(head)) owned.add(uid);
      return owned;
    },
  };
}

/** The calendar reader of the reminder check; tsdav and ical.js are imported at the first read. */
function occurrenceReader(
  entries: readonly CalendarEntry[],
  open: () => Promise<ConfiguredCalendars>,
): OccurrenceReader {
  return {
    calendars: () => entries.map((entry) => entry.name),
    occurrencesOf: async (calendar, from, to, signal) =>
      (await open()).occurrencesOf(calendar, from, to, signal),
  };
}
