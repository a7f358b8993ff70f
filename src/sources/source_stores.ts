/**
 * Ports of the event sources' own tables: each source's health (with backoff), seen mail, sent
 * reminders, custom check results, seen GitHub items, digests and what a digest reads (money's are
 * declared in `src/money/money_store.ts`). SQLite implements them (`sqliteSourceStores` in
 * src/adapters/sqlite/); a source never sees a database.
 */
import type { Digest } from "../core/source_ports.ts";
import type { Transaction } from "../core/work_ports.ts";
import type { PendingEvent } from "../core/heartbeat.ts";

/** How one scheduled source is doing. */
export interface SourceHealth {
  source: string;
  lastCheckAt?: string;
  lastOkAt?: string;
  lastError?: string;
  failures: number;
  nextCheckAt?: string;
  /** What the source remembers between checks (a mailbox's UIDVALIDITY, a calendar snapshot). */
  cursor?: string;
}

/** Port: the sources' health rows, seen mail and sent reminders. */
export interface SourceStore {
  /** Health of one source (undefined before its first check). */
  health(source: string): SourceHealth | undefined;
  /** Records a good check. */
  recordSuccess(source: string, at: Date, nextCheckAt: Date, cursor?: string): void;
  /** Records a failed check; returns the consecutive failures so far. */
  recordFailure(
    source: string,
    at: Date,
    error: string,
    nextCheckAt: (failures: number) => Date,
  ): number;
  /** Marks a message seen; false when it already was. */
  markMailSeen(account: string, uidValidity: string, uid: number, at: Date): boolean;
  /** Whether a message was seen before. */
  mailSeen(account: string, uidValidity: string, uid: number): boolean;
  /** Forgets seen mail of other UIDVALIDITY generations and UIDs below `belowUid`. */
  forgetMail(account: string, uidValidity: string, belowUid: number): void;
  /** Records a reminder for one event instance; false when it was already sent. */
  markReminded(calendar: string, uid: string, startsAt: Date, at: Date): boolean;
  /** Forgets reminders of instances that started long before `now`. */
  pruneReminders(now: Date): void;
}

/** The last result of one custom check. */
export interface CheckResultRow {
  name: string;
  outputHash?: string;
  exitCode?: number;
  /** The JSON value at the check's path, as JSON text. */
  jsonValue?: string;
  /** The last run failed (non-zero exit, time-out, cannot run). */
  failing: boolean;
  lastRunAt: string;
  durationMs: number;
  /** The start of stdout (bounded), for status and the event text. */
  output: string;
}

/** Port: each custom check's last result (what "changed" compares with). */
export interface CheckResults {
  /** The last result of `name` (undefined before its first run). */
  last(name: string): CheckResultRow | undefined;
  /** Stores the newest result of a check. */
  save(result: CheckResultRow): void;
}

/** Port: GitHub items already queued (by kind + id, with the version seen). */
export interface GitHubSeen {
  /** Whether this item (or this version of it) was not queued before. */
  isNew(kind: string, id: string, version: string): boolean;
  /** Records an item as seen at `version`. */
  mark(kind: string, id: string, version: string, at: Date): void;
  /** Forgets items of `kind` that are gone. */
  forgetExcept(kind: string, ids: readonly string[]): void;
}

/** Port: the stored digests, searchable by words. */
export interface DigestStore {
  /** The digest of `period` starting at `startsAt`, if written. */
  find(period: Digest["period"], startsAt: Date): Digest | undefined;
  /** Stores (or replaces) the digest of one period. */
  save(digest: Omit<Digest, "id">): void;
  /** Deletes a digest (its vectors go with it); false when there was none. */
  remove(id: number): boolean;
  /** Newest first. */
  list(limit: number): Digest[];
  /** Digests matching any of the words, best first. */
  search(text: string, limit: number): Digest[];
}

/** A user or assistant message of a period, with its conversation. */
export interface PeriodMessage {
  conversation: number;
  kind: string;
  title: string;
  role: string;
  content: string;
}

/** An event queued in a period. */
export type PeriodEvent = Pick<PendingEvent, "source" | "kind" | "summary">;

/** Port: what happened from `from` (inclusive) to `to` (exclusive), oldest first, bounded. */
export interface PeriodActivity {
  messages(from: Date, to: Date): PeriodMessage[];
  events(from: Date, to: Date): PeriodEvent[];
}

/** Every store the event sources use, built once over the database. */
export interface SourceStores {
  health: SourceStore;
  checks: CheckResults;
  github: GitHubSeen;
  digests: DigestStore;
  activity: PeriodActivity;
  /** One transaction over all of them (and the event queue). */
  transaction: Transaction;
}
