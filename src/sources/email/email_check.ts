/**
 * The new-mail check (a tick job): for each due account, the unread UIDs not seen before become
 * heartbeat events (sender, subject, date; never bodies), except the owner's mail to the email
 * channel (`ownerMail`: the channel takes it as the owner's words). The first check of a mailbox
 * (or a new UIDVALIDITY) takes a baseline: one summary event instead of one per old unread message.
 */
import type { MailHeader } from "../../core/source_ports.ts";
import { formatDateTime } from "../../core/zoned_time.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import type { EmailAccount } from "./imap_connection.ts";
import type { UnreadSnapshot } from "./imap_mail_reader.ts";

/** The part of the reader the check uses. */
export interface UnreadReader {
  unread(account: string, signal?: AbortSignal): Promise<UnreadSnapshot>;
  headers(account: string, uids: number[], signal?: AbortSignal): Promise<MailHeader[]>;
}

/**
 * The mail of one account that a chat channel takes as the owner's words (the email channel's
 * account, mail that authenticates as an allowed sender): never an event, whichever reads first.
 */
export interface OwnerMailFilter {
  account: string;
  /** The UIDs among `uids` that are the channel's. */
  owned(uids: number[], signal?: AbortSignal): Promise<Set<number>>;
}

/** What the email check needs. */
interface EmailCheckDependencies extends CheckDependencies {
  accounts: readonly EmailAccount[];
  reader: UnreadReader;
  /** The email channel's mail, left out of the events. */
  ownerMail?: OwnerMailFilter;
  everyMinutes: number;
  /** Dates in events are shown in this zone (the system's when absent). */
  timeZone?: string;
}

/** What one check found. */
export interface EmailCheckResult {
  account: string;
  outcome: "baseline" | "checked" | "failed";
  newMessages: number;
  error?: string;
}

/** New messages queued one by one per check at most; the rest become one "and N more" event. */
const maxEventsPerCheck = 20;

/**
 * The newest unseen mails looked at for the channel's (older ones are at most counted in an
 * "and N more" line, never shown one by one).
 */
const maxOwnerLook = 100;

/** Source name of an account in health rows and events. */
export function emailSourceName(account: string): string {
  return `email ${account}`;
}

/** The email tick job. */
export class EmailCheck {
  readonly name = "email";
  /** The last check of each account: checks of one account run one at a time. */
  readonly #latest = new Map<string, Promise<EmailCheckResult>>();
  constructor(private readonly deps: EmailCheckDependencies) {}

  /** The configured accounts. */
  get accounts(): readonly EmailAccount[] {
    return this.deps.accounts;
  }

  /** Checks every due account (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    for (const account of this.deps.accounts) {
      if (signal.aborted) return;
      if (!isDue(this.deps.store, emailSourceName(account.name), now)) continue;
      await this.check(account, signal);
    }
  }

  /** Checks one account now (after its running check, if any: polling and IDLE share it). */
  check(account: EmailAccount, signal?: AbortSignal): Promise<EmailCheckResult> {
    const previous = this.#latest.get(account.name);
    const next = previous
      ? previous.then(() => this.#check(account, signal))
      : this.#check(account, signal);
    this.#latest.set(account.name, next);
    return next;
  }

  async #check(account: EmailAccount, signal?: AbortSignal): Promise<EmailCheckResult> {
    const { deps } = this;
    const source = emailSourceName(account.name);
    try {
      const snapshot = await deps.reader.unread(account.name, signal);
      const baseline = deps.store.health(source)?.cursor !== snapshot.uidValidity;
      const unseen = snapshot.unreadUids.filter((uid) =>
        !deps.store.mailSeen(account.name, snapshot.uidValidity, uid)
      );
      const owned = deps.ownerMail?.account === account.name && unseen.length
        ? await deps.ownerMail.owned(unseen.slice(-maxOwnerLook), signal)
        : new Set<number>();
      const fresh = unseen.filter((uid) => !owned.has(uid));
      const shown = baseline ? fresh.slice(-3) : fresh.slice(-maxEventsPerCheck);
      const headers = (await deps.reader.headers(account.name, shown, signal))
        .sort((a, b) => a.uid - b.uid);
      const at = deps.clock.now();
      deps.transaction(() => {
        if (baseline) this.#queueBaseline(account, snapshot, owned.size, headers, at);
        else this.#queueNew(account, snapshot.uidValidity, fresh, headers, at);
        for (const uid of unseen) {
          deps.store.markMailSeen(account.name, snapshot.uidValidity, uid, at);
        }
        deps.store.forgetMail(account.name, snapshot.uidValidity, snapshot.unreadUids[0] ?? 0);
        deps.store.recordSuccess(
          source,
          at,
          new Date(at.getTime() + deps.everyMinutes * 60_000),
          snapshot.uidValidity,
        );
      });
      return {
        account: account.name,
        outcome: baseline ? "baseline" : "checked",
        newMessages: baseline ? 0 : fresh.length,
      };
    } catch (error) {
      const message = (error as Error).message;
      recordCheckFailure(deps, source, deps.everyMinutes, message);
      return { account: account.name, outcome: "failed", newMessages: 0, error: message };
    }
  }

  #queueBaseline(
    account: EmailAccount,
    snapshot: UnreadSnapshot,
    owned: number,
    newest: MailHeader[],
    at: Date,
  ): void {
    const count = snapshot.unreadUids.length - owned;
    if (count === 0) return;
    const lines = newest.reverse().map((header) => describeHeader(header, this.deps.timeZone));
    this.deps.queue.enqueue({
      source: emailSourceName(account.name),
      kind: "unread_email",
      summary: `${count} unread in ${account.mailbox}; newest: ${lines.join(" | ")}`,
      dedupeKey: `email:${account.name}:${snapshot.uidValidity}:baseline`,
    }, at);
  }

  #queueNew(
    account: EmailAccount,
    uidValidity: string,
    fresh: number[],
    headers: MailHeader[],
    at: Date,
  ): void {
    for (const header of headers) {
      this.deps.queue.enqueue({
        source: emailSourceName(account.name),
        kind: "new_email",
        summary: describeHeader(header, this.deps.timeZone),
        urgent: account.urgent,
        dedupeKey: `email:${account.name}:${uidValidity}:${header.uid}`,
      }, at);
    }
    const more = fresh.length - headers.length;
    if (more > 0) {
      this.deps.queue.enqueue({
        source: emailSourceName(account.name),
        kind: "new_email",
        summary: `and ${more} more new unread message${
          more === 1 ? "" : "s"
        } in ${account.mailbox}`,
        urgent: account.urgent,
      }, at);
    }
  }
}

/** One compact line: sender, subject, date (in `timeZone`), and the UID for read_email. */
function describeHeader(header: MailHeader, timeZone?: string): string {
  return `from ${header.from}: "${header.subject}" (${localDate(header.date, timeZone)}` +
    `, ${header.account} uid ${header.uid})`;
}

function localDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  return isNaN(date.getTime()) ? iso.slice(0, 40) : formatDateTime(date, timeZone);
}
