/**
 * Schema 35: what money's alerts remember: each raised alert's key (a re-import or a second
 * tick never raises it again) and whether an account's balance was below its floor.
 */
import type { Migration } from "../database.ts";

/** Raised alert keys and balance-floor states. */
export const moneyAlertsMigration: Migration = {
  version: 35,
  name: "035_money_alerts",
  sql: `
CREATE TABLE money_alerts (
  key TEXT PRIMARY KEY,
  raised_at TEXT NOT NULL
);
ALTER TABLE money_accounts ADD COLUMN below_floor INTEGER;
ALTER TABLE money_accounts ADD COLUMN floor_checked_at TEXT;
`,
};
