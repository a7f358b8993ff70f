/** The `radar status` section of the email and calendar sources: last check, last error. */
import type { DatabaseSync } from "node:sqlite";
import type { RadarConfig } from "../config/schema.ts";
import { emailSourceName } from "./email/email_check.ts";
import { calendarSourceName } from "./calendar/calendar_check.ts";
import { type SourceHealth, SqliteSourceStore } from "./source_store.ts";

function when(iso: string | undefined): string {
  return iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "never";
}

function describe(name: string, health: SourceHealth | undefined): string {
  if (!health?.lastCheckAt) return `  ${name}: not checked yet (checked by radar serve)`;
  if (health.lastError) {
    return `  ${name}: FAILING (${health.failures}× in a row, last ${when(health.lastCheckAt)}; ` +
      `next try ${when(health.nextCheckAt)}): ${health.lastError}`;
  }
  return `  ${name}: ok (last check ${when(health.lastCheckAt)})`;
}

/** Lines for `radar status`: one per configured account and calendar. */
export function sourceStatusLines(config: RadarConfig, db: DatabaseSync): string[] {
  const names = [
    ...config.email.accounts.map((account) => emailSourceName(account.name)),
    ...config.calendar.calendars.map((calendar) => calendarSourceName(calendar.name)),
  ];
  if (!names.length) return ["sources:   no email accounts or calendars configured"];
  const store = new SqliteSourceStore(db);
  return ["sources:", ...names.map((name) => describe(name, store.health(name)))];
}
