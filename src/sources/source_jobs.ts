/** The daemon's tick jobs of the email and calendar sources (none when nothing is configured). */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { CalendarCheck } from "./calendar/calendar_check.ts";
import { ConfiguredCalendars } from "./calendar/calendar_reader.ts";
import { EmailCheck } from "./email/email_check.ts";
import { ImapMailReader } from "./email/imap_mail_reader.ts";
import type { EventSink } from "./source_checks.ts";
import { SqliteSourceStore } from "./source_store.ts";

/** What the jobs need from the daemon. */
export interface SourceJobDependencies {
  config: RadarConfig;
  db: DatabaseSync;
  queue: EventSink;
  clock: Clock;
  logger: Logger;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

/** A job run on every tick (the daemon's TickJob shape). */
export interface SourceJob {
  name: string;
  run(now: Date, signal: AbortSignal): Promise<void>;
}

/** The email check and the calendar reminders, as configured. */
export function sourceJobs(deps: SourceJobDependencies): SourceJob[] {
  const { config } = deps;
  const env = deps.env ?? Deno.env.toObject();
  const store = new SqliteSourceStore(deps.db);
  const common = { db: deps.db, store, queue: deps.queue, clock: deps.clock, logger: deps.logger };
  const jobs: SourceJob[] = [];
  if (config.email.accounts.length) {
    jobs.push(
      new EmailCheck({
        ...common,
        accounts: config.email.accounts,
        reader: new ImapMailReader(config.email.accounts, {
          env,
          timeoutMs: config.email.timeout_seconds * 1000,
          maxBodyChars: config.email.max_body_chars,
        }),
        everyMinutes: config.email.check_every_minutes,
        timeZone: config.radar.timezone || undefined,
      }),
    );
  }
  if (config.calendar.calendars.length) {
    jobs.push(
      new CalendarCheck({
        ...common,
        reader: new ConfiguredCalendars(config.calendar.calendars, {
          env,
          timeoutMs: config.calendar.timeout_seconds * 1000,
          fetch: deps.fetch ?? globalThis.fetch,
        }),
        everyMinutes: config.calendar.check_every_minutes,
        remindMinutesBefore: config.calendar.remind_minutes_before,
        timeZone: config.radar.timezone || undefined,
      }),
    );
  }
  return jobs;
}
