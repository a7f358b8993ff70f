/** Ports of the inbox, calendar and digest sources, and the sources' health records. */

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

/** A new event to add to a writable calendar. */
export interface NewCalendarEvent {
  title: string;
  start: Date;
  end: Date;
  location?: string;
  description?: string;
}

/** One occurrence of a calendar event (a recurring event has one per instance). */
export interface CalendarOccurrence extends Omit<NewCalendarEvent, "description"> {
  calendar: string;
  uid: string;
  allDay: boolean;
  /** Its TZID names a zone neither the file nor Radar knows: the time is read as UTC. */
  unknownZone?: string;
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
  /**
   * Adds an event once: its UID is derived from the calendar and the event, so the same event
   * added again (a retried run, a model repeating itself) is found, not stored twice.
   */
  add(
    calendar: string,
    event: NewCalendarEvent,
    signal?: AbortSignal,
  ): Promise<{ uid: string; added: boolean }>;
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

/** One GitHub item, compact. */
export interface GitHubItem {
  kind: "notification" | "review" | "ci";
  /** Stable id for dedup (notification thread id, PR URL). */
  id: string;
  /** Changes when the item changes (a new update, a different set of failing checks). */
  version: string;
  repo: string;
  title: string;
  /** Reason, PR number, failing check names … one short phrase. */
  detail: string;
  url: string;
}

/** GitHub as the `github` tool reads it (gh in production). Errors are thrown as one line. */
export interface GitHubLists {
  /** Unread notifications. */
  notifications(signal?: AbortSignal): Promise<GitHubItem[]>;
  /** Open pull requests waiting for my review. */
  reviewRequests(signal?: AbortSignal): Promise<GitHubItem[]>;
  /** My open pull requests whose CI fails. */
  failingPullRequests(signal?: AbortSignal): Promise<GitHubItem[]>;
}

/** One compact line of a GitHub item. */
export function githubItemLine(item: GitHubItem): string {
  return `${item.repo}: ${item.title} (${item.detail}) ${item.url}`;
}

/** The kinds of source `radar status` and the dashboard's Sources card report on. */
export type SourceKind = "email" | "calendar" | "mcp" | "check" | "github" | "money";

/**
 * How a source is doing: `ok`; `failing` (it needs the user: its last check failed, it cannot
 * run, or it needs re-approval); `unchecked` (configured, not checked yet); `disabled` (not
 * used; `note` says why).
 */
export type SourceState = "ok" | "failing" | "unchecked" | "disabled";

/** One source's health: what `radar status` prints and the dashboard's Sources card shows. */
export interface SourceHealthRecord {
  kind: SourceKind;
  /** The account, calendar, MCP server or check name; "github" for GitHub. */
  name: string;
  state: SourceState;
  /** ISO time of the last check or run; absent: never. */
  lastCheckAt?: string;
  /** ISO time of the next try after a failure. */
  nextCheckAt?: string;
  /** Why it fails, one line (known secrets masked). */
  lastError?: string;
  /** Failed checks in a row (0: none, or not counted for this kind). */
  failures: number;
  /** A custom check's last run time in milliseconds. */
  durationMs?: number;
  /** An approved MCP server's approved tools. */
  tools?: number;
  /** One line beside the state: why it is unchecked or disabled, an MCP server's grants. */
  note?: string;
}

/** What a record is called in its group: "email home", "calendar family", a check's name. */
export function sourceLabel(record: SourceHealthRecord): string {
  return record.kind === "email" || record.kind === "calendar"
    ? `${record.kind} ${record.name}`
    : record.name;
}

/** The event sources' health (`radar status`, the dashboard's Sources card). */
export interface SourceHealthReport {
  /**
   * One record per configured source, in status order (email, calendar, mcp, check, github),
   * with known secrets masked; `env` is where gh and the exec sandbox are looked for.
   */
  records(env: Record<string, string | undefined>): Promise<SourceHealthRecord[]>;
}
