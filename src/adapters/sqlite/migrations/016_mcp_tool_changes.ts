/** Schema 16: an approved MCP server whose tool list changed since approval (needs re-approval). */
import type { Migration } from "../database.ts";

/**
 * What changed ("echo: changed", "sneaky: new") and when it was noticed; NULL while the tools
 * match the approval. Saving an approval again (radar mcp approve) clears both.
 */
export const mcpToolChangesMigration: Migration = {
  version: 16,
  name: "016_mcp_tool_changes",
  sql: `
ALTER TABLE mcp_approvals ADD COLUMN tool_changes_json TEXT;
ALTER TABLE mcp_approvals ADD COLUMN tools_changed_at TEXT;
`,
};
