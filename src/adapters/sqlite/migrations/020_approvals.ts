/** Schema 20: pending approvals, the capabilities their buttons carry, and approved calls' audit. */
import type { Migration } from "../database.ts";

/**
 * `approvals`: the exact action a run without a person wanted (tool, arguments text), why it needs
 * a yes, what untrusted input the run had read, and its fate; `key` (the run's outbox key) makes a
 * re-delivered run find its earlier request. `capabilities`: the SHA-256 of each single-use button
 * secret (never the secret), its one action, its target and expiry. `tool_calls.approval_id`: the
 * approval whose yes ran a call.
 */
export const approvalsMigration: Migration = {
  version: 20,
  name: "020_approvals",
  sql: `
CREATE TABLE approvals (
  id INTEGER PRIMARY KEY,
  key TEXT UNIQUE,
  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed', 'denied', 'expired')),
  tool TEXT NOT NULL,
  arguments TEXT NOT NULL,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  kind TEXT NOT NULL,
  reasons TEXT NOT NULL,
  tainted TEXT NOT NULL,
  untrusted_sources TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  decided_at TEXT,
  decided_via TEXT CHECK (decided_via IN ('cli', 'dashboard', 'phone')),
  result TEXT,
  outcome TEXT,
  grant_id TEXT
);
CREATE INDEX approvals_pending ON approvals(expires_at) WHERE state = 'pending';
CREATE TABLE capabilities (
  hash TEXT PRIMARY KEY,
  action TEXT NOT NULL CHECK (action IN ('approve', 'deny', 'undo')),
  target INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX capabilities_target ON capabilities(target, action);
ALTER TABLE tool_calls ADD COLUMN approval_id INTEGER;
`,
};
