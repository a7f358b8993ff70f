/** Schema 12: approvals of MCP servers (command, its hash and what it may touch). */
import type { Migration } from "../database.ts";

/**
 * One approval per server name; a changed command line no longer matches its hash. The tool list
 * seen at approval is kept: a server cannot rename or re-describe its tools afterwards.
 */
export const mcpMigration: Migration = {
  version: 12,
  name: "012_mcp",
  sql: `
CREATE TABLE mcp_approvals (
  name TEXT PRIMARY KEY,
  command_json TEXT NOT NULL,
  url TEXT NOT NULL,
  command_hash TEXT NOT NULL,
  folders_json TEXT NOT NULL,
  read_folders_json TEXT NOT NULL,
  network INTEGER NOT NULL,
  env_json TEXT NOT NULL,
  hosts_json TEXT NOT NULL,
  tools_json TEXT NOT NULL,
  approved_at TEXT NOT NULL
);
`,
};
