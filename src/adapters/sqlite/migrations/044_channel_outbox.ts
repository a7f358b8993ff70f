/**
 * Schema 44: what the chat channels send (answers, notices, approval questions), queued before it
 * is sent and kept as the delivery receipt: tries, the next try (backoff, or the service's
 * retry-after), the last error, and the service's id of the sent message.
 */
import type { Migration } from "../database.ts";

/** Outgoing channel messages. */
export const channelOutboxMigration: Migration = {
  version: 44,
  name: "044_channel_outbox",
  sql: `
CREATE TABLE channel_outbound (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  purpose TEXT NOT NULL
    CHECK (purpose IN ('answer', 'notice', 'ask', 'outcome', 'refusal', 'pairing')),
  dedupe_key TEXT UNIQUE,
  text TEXT NOT NULL,
  buttons TEXT,
  subject TEXT,
  reply_to TEXT,
  edit_of INTEGER REFERENCES channel_outbound(id) ON DELETE SET NULL,
  approval_id INTEGER,
  owner_id TEXT,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'undeliverable')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  claimed_by INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  external_id TEXT
);
CREATE INDEX channel_outbound_due ON channel_outbound(channel, state, next_attempt_at);
CREATE INDEX channel_outbound_external ON channel_outbound(channel, external_id)
  WHERE external_id IS NOT NULL;
`,
};
