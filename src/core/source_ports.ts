/** Ports of the inbox and calendar sources, as the tools and the heartbeat jobs see them. */

/** One message's headers (never its body). */
export interface MailHeader {
  account: string;
  uid: number;
  from: string;
  subject: string;
  /** ISO date of the message (its Date header, else the server's arrival time). */
  date: string;
  unread: boolean;
}

/** One message's readable text, size-capped. */
export interface MailMessage extends MailHeader {
  text: string;
  truncated: boolean;
}

/** Reads (and flags) mail in the configured accounts. Errors are thrown as one readable line. */
export interface MailReader {
  accounts(): string[];
  list(
    account: string,
    options: { unreadOnly: boolean; limit: number },
    signal?: AbortSignal,
  ): Promise<MailHeader[]>;
  read(account: string, uid: number, signal?: AbortSignal): Promise<MailMessage | undefined>;
  markRead(account: string, uid: number, signal?: AbortSignal): Promise<boolean>;
}

/** One occurrence of a calendar event (a recurring event has one per instance). */
export interface CalendarOccurrence {
  calendar: string;
  uid: string;
  title: string;
  start: Date;
  end: Date;
  allDay: boolean;
  location?: string;
}

/** A new event to add to a writable calendar. */
export interface NewCalendarEvent {
  title: string;
  start: Date;
  end: Date;
  location?: string;
  description?: string;
}

/** Reads the configured calendars; each unreadable calendar is one line in `errors`. */
export interface CalendarReader {
  calendars(): string[];
  /** Names of the calendars events can be added to (CalDAV). */
  writable(): string[];
  occurrences(
    from: Date,
    to: Date,
    signal?: AbortSignal,
  ): Promise<{ events: CalendarOccurrence[]; errors: string[] }>;
  add(calendar: string, event: NewCalendarEvent, signal?: AbortSignal): Promise<string>;
}

/** One stored daily or weekly digest. */
export interface Digest {
  id: number;
  period: "day" | "week";
  startsAt: string;
  endsAt: string;
  content: string;
  createdAt: string;
}

/** The digests as `radar digest`, `recall` and /summaries use them. */
export interface DigestArchive {
  /** Newest first, `limit` of them. */
  list(limit: number): Digest[];
  /** Digests matching any of the words, best first. */
  search(text: string, limit: number): Digest[];
  /** Writes (or rewrites) the digest of `period` from `from` to `to` (one model call). */
  write(period: Digest["period"], from: Date, to: Date, signal?: AbortSignal): Promise<Digest>;
}
