/**
 * Schema 43: what the chat channels received (Telegram, Matrix, email), stored before it is
 * handled and de-duplicated by the service's own id, with each channel's cursor (Telegram's
 * offset, Matrix's since token, the mailbox's last UID) stored in the same transaction.
 */
import type { Migration } from "../database.ts";

/** Received messages and the channels' cursors. */
export const channelInboxMigration: Migration = {
  version: 43,
  name: "043_channel_inbox",
  sql: `
CREATE TABLE channel_inbound (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL,
  external_id TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  sender_name TEXT,
  verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
  text TEXT NOT NULL,
  attachments TEXT NOT NULL DEFAULT '[]',
  answer TEXT,
  forwarded_from TEXT,
  reply_to TEXT,
  thread TEXT,
  sent_at TEXT,
  received_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'handling', 'done', 'refused', 'withdrawn', 'failed')),
  claimed_by INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  handled_at TEXT,
  outcome TEXT,
  UNIQUE (channel, external_id)
);
CREATE INDEX channel_inbound_waiting ON channel_inbound(state, id)
  WHERE state IN ('pending', 'handling');
CREATE TABLE channel_cursors (
  channel TEXT PRIMARY KEY,
  cursor TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`,
};
