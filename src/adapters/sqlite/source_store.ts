/** SQLite rows of the email and calendar sources: health, seen mail, sent reminders. */
import { statement } from "./statements.ts";
import type { DatabaseSync } from "node:sqlite";
import type { SourceHealth, SourceStore } from "../../sources/source_stores.ts";
import { write } from "./write.ts";
import { camelRecord, columnsOf, selectOne } from "./rows.ts";

/** The columns of a source's health, in its record's key order. */
const healthColumns = columnsOf<SourceHealth>()(
  "source last_check_at last_ok_at last_error failures next_check_at cursor",
);

/** Days after which sent reminders are forgotten. */
const keepDays = 60;

/** The sources' store. */
export class SqliteSourceStore implements SourceStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Health of one source (undefined before its first check). */
  health(source: string): SourceHealth | undefined {
    const sql = "SELECT * FROM source_health WHERE source = ?";
    return selectOne(this.db, (row) => camelRecord(row, healthColumns), sql, source);
  }

  /** Records a good check. */
  recordSuccess(source: string, at: Date, nextCheckAt: Date, cursor?: string): void {
    write(
      this.db,
      "the source's check",
      `INSERT INTO source_health (source, last_check_at, last_ok_at, last_error, failures,
         next_check_at, cursor)
       VALUES (?1, ?2, ?2, NULL, 0, ?3, ?4)
       ON CONFLICT (source) DO UPDATE SET last_check_at = ?2, last_ok_at = ?2, last_error = NULL,
         failures = 0, next_check_at = ?3, cursor = COALESCE(?4, cursor)`,
      source,
      at.toISOString(),
      nextCheckAt.toISOString(),
      cursor ?? null,
    );
  }

  /** Records a failed check; returns the consecutive failures so far. */
  recordFailure(
    ...[source, at, error, nextCheckAt]: Parameters<SourceStore["recordFailure"]>
  ): number {
    const failures = (this.health(source)?.failures ?? 0) + 1;
    write(
      this.db,
      "the source's failure",
      `INSERT INTO source_health (source, last_check_at, last_error, failures, next_check_at)
       VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (source) DO UPDATE SET last_check_at = ?2, last_error = ?3, failures = ?4,
         next_check_at = ?5`,
      source,
      at.toISOString(),
      error.slice(0, 500),
      failures,
      nextCheckAt(failures).toISOString(),
    );
    return failures;
  }

  /** Marks a message seen; false when it already was. */
  markMailSeen(account: string, uidValidity: string, uid: number, at: Date): boolean {
    return write(
      this.db,
      "the seen message",
      `INSERT OR IGNORE INTO email_seen (account, uid_validity, uid, seen_at) VALUES (?, ?, ?, ?)`,
      account,
      uidValidity,
      uid,
      at.toISOString(),
    ).changes > 0;
  }

  /** Whether a message was seen before. */
  mailSeen(account: string, uidValidity: string, uid: number): boolean {
    return statement(
      this.db,
      "SELECT 1 FROM email_seen WHERE account = ? AND uid_validity = ? AND uid = ?",
    ).get(account, uidValidity, uid) !== undefined;
  }

  /** Records a reminder for one event instance; false when it was already sent. */
  markReminded(calendar: string, uid: string, startsAt: Date, at: Date): boolean {
    return write(
      this.db,
      "the sent reminder",
      `INSERT OR IGNORE INTO calendar_reminders (calendar, uid, starts_at, reminded_at)
       VALUES (?, ?, ?, ?)`,
      calendar,
      uid,
      startsAt.toISOString(),
      at.toISOString(),
    ).changes > 0;
  }

  /**
   * Forgets seen mail that cannot come back as new: other UIDVALIDITY generations and UIDs
   * below the oldest unread one (UIDs only grow).
   */
  forgetMail(account: string, uidValidity: string, belowUid: number): void {
    write(
      this.db,
      "the seen messages' cleanup",
      "DELETE FROM email_seen WHERE account = ? AND (uid_validity != ? OR uid < ?)",
      account,
      uidValidity,
      belowUid,
    );
  }

  /** Forgets reminders of instances that started before the keep window. */
  pruneReminders(now: Date): void {
    const before = new Date(now.getTime() - keepDays * 86_400_000).toISOString();
    write(
      this.db,
      "the reminders' cleanup",
      "DELETE FROM calendar_reminders WHERE starts_at < ?",
      before,
    );
  }
}
