/**
 * Schema 50: what follows a chat channel's answer. `approvals.decided_via` names the chat that
 * decided an approval (telegram, matrix, email; `phone` stays ntfy's buttons). SQLite cannot
 * change a CHECK, so the table is rebuilt the SQLite way (https://sqlite.org/lang_altertable.html,
 * "other kinds of table schema changes"): its stored definition, with the new CHECK, made under a
 * new name; the rows copied; the old table dropped; the new one renamed; its indexes made again
 * from their stored definitions. Built from what is stored, it keeps every column other steps
 * added to approvals, and its foreign key; all inside the step's transaction.
 * `channel_inbound.turn`: the chat turn begun for a message (its conversation, the newest message
 * there before it, and the words the model gets), so a run a restart interrupted resumes without
 * storing the owner's message or saving its files again. `channel_outbound.closed_at`: when a
 * question asked in a chat was closed (edited to say how its approval ended, buttons gone).
 */
import type { DatabaseSync } from "node:sqlite";
import type { Migration } from "../database.ts";

/** The CHECK schema 20 made. */
const oldCheck = "CHECK (decided_via IN ('cli', 'dashboard', 'phone'))";
/** The CHECK from now on: the chat channels too. */
const newCheck =
  "CHECK (decided_via IN ('cli', 'dashboard', 'phone', 'telegram', 'matrix', 'email'))";

/** `approvals` rebuilt with the wider `decided_via` CHECK. */
function rebuildApprovals(db: DatabaseSync): void {
  const stored = (types: string) =>
    db.prepare(
      `SELECT name, sql FROM sqlite_schema
       WHERE type IN (${types}) AND tbl_name = 'approvals' AND sql IS NOT NULL ORDER BY name`,
    ).all() as Array<{ name: string; sql: string }>;
  const [table] = stored("'table'");
  if (!table?.sql.includes(oldCheck)) {
    throw new Error("approvals.decided_via is not the one schema 20 made");
  }
  const indexes = stored("'index', 'trigger'");
  db.exec(
    table.sql.replace(/^CREATE TABLE "?approvals"?/, "CREATE TABLE approvals_050")
      .replace(oldCheck, newCheck),
  );
  db.exec("INSERT INTO approvals_050 SELECT * FROM approvals");
  db.exec("DROP TABLE approvals");
  db.exec("ALTER TABLE approvals_050 RENAME TO approvals");
  for (const index of indexes) db.exec(index.sql);
  if (db.prepare("PRAGMA foreign_key_check(approvals)").all().length) {
    throw new Error("approvals rebuilt with a conversation that is gone");
  }
}

/** Who decided, by channel; the turn a message began; questions closed. */
export const channelAnswersMigration: Migration = {
  version: 50,
  name: "050_channel_answers",
  sql: `
ALTER TABLE channel_inbound ADD COLUMN turn TEXT;
ALTER TABLE channel_outbound ADD COLUMN closed_at TEXT;
CREATE INDEX channel_outbound_open_asks ON channel_outbound(channel)
  WHERE purpose = 'ask' AND state = 'sent' AND closed_at IS NULL;
`,
  apply: rebuildApprovals,
};
