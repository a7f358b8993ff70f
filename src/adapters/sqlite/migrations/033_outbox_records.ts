/**
 * Schema 33: the outbox keeps what each side effect sent and how it ended. `state` is claimed,
 * sent or failed (a failed row stays, its key free for a retry, which counts in `attempts`); a
 * notification's topic, title, body and priority; the service's HTTP status or the error line.
 */
import type { Migration } from "../database.ts";

/** Columns of the outbox records (the dashboard lists notifications from them). */
export const outboxRecordsMigration: Migration = {
  version: 33,
  name: "033_outbox_records",
  sql: `
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'claimed';
UPDATE outbox SET state = 'sent' WHERE sent_at IS NOT NULL;
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE outbox ADD COLUMN finished_at TEXT;
ALTER TABLE outbox ADD COLUMN topic TEXT;
ALTER TABLE outbox ADD COLUMN title TEXT;
ALTER TABLE outbox ADD COLUMN body TEXT;
ALTER TABLE outbox ADD COLUMN priority TEXT;
ALTER TABLE outbox ADD COLUMN status INTEGER;
ALTER TABLE outbox ADD COLUMN error TEXT;
CREATE INDEX outbox_kind_created ON outbox(kind, created_at);
`,
};
