/** Schema 11: health of the email and calendar sources, seen mail and sent reminders. */
import type { Migration } from "../database.ts";

/** Source health, mail dedup by account + UIDVALIDITY + UID, reminder dedup per instance. */
export const sourcesMigration: Migration = {
  version: 11,
  name: "011_sources",
  sql: `
CREATE TABLE source_health (
  source TEXT PRIMARY KEY,
  last_check_at TEXT,
  last_ok_at TEXT,
  last_error TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  next_check_at TEXT,
  cursor TEXT
);
CREATE TABLE email_seen (
  account TEXT NOT NULL,
  uid_validity TEXT NOT NULL,
  uid INTEGER NOT NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY (account, uid_validity, uid)
);
CREATE TABLE calendar_reminders (
  calendar TEXT NOT NULL,
  uid TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  reminded_at TEXT NOT NULL,
  PRIMARY KEY (calendar, uid, starts_at)
);
`,
};
