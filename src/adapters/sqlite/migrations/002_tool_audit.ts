/** Schema 2: the tool audit trail (every tool call, secrets redacted, pruned by retention). */
import type { Migration } from "../database.ts";

/** The tool_calls table. */
export const toolAuditMigration: Migration = {
  version: 2,
  name: "002_tool_audit",
  sql: `
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  tool TEXT NOT NULL,
  arguments TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'refused', 'timeout')),
  duration_ms INTEGER NOT NULL,
  result TEXT NOT NULL
);
CREATE INDEX tool_calls_at ON tool_calls(at);
CREATE INDEX tool_calls_tool_at ON tool_calls(tool, at);
`,
};
