/**
 * Schema 45: who may talk to Radar on a channel and where: identities paired with a one-time code
 * (only the code's hash is stored), strangers (for the rate-limited "not paired" reply and wrong
 * codes), the conversation of each chat and person, the single-use answers to approvals asked in a
 * chat (hashes, bound to the approval and the owner's identity), and each channel's health.
 */
import type { Migration } from "../database.ts";

/** Owners, pairing codes, strangers, conversations, approval answers, health. */
export const channelPeopleMigration: Migration = {
  version: 45,
  name: "045_channel_people",
  sql: `
CREATE TABLE channel_owners (
  channel TEXT NOT NULL,
  user_id TEXT NOT NULL,
  paired_at TEXT NOT NULL,
  PRIMARY KEY (channel, user_id)
);
CREATE TABLE channel_pairings (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL,
  code_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  used_by TEXT
);
CREATE TABLE channel_strangers (
  channel TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  messages INTEGER NOT NULL DEFAULT 0,
  last_refusal_at TEXT,
  failed_pairings INTEGER NOT NULL DEFAULT 0,
  last_failed_pairing_at TEXT,
  PRIMARY KEY (channel, sender_id)
);
CREATE TABLE channel_conversations (
  channel TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  started_at TEXT NOT NULL,
  last_message_at TEXT NOT NULL,
  PRIMARY KEY (channel, chat_id, sender_id)
);
CREATE INDEX channel_conversations_latest ON channel_conversations(channel, last_message_at);
CREATE TABLE channel_answer_keys (
  key_hash TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  approval_id INTEGER NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('approve', 'deny', 'either')),
  owner_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX channel_answer_keys_approval ON channel_answer_keys(approval_id);
CREATE TABLE channel_health (
  channel TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('connecting', 'connected', 'failing', 'stopped')),
  pid INTEGER,
  updated_at TEXT NOT NULL,
  last_message_at TEXT,
  last_sent_at TEXT,
  last_error TEXT,
  last_error_at TEXT
);
`,
};
