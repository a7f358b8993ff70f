/** Schema 30: an MCP approval pins its program's files (issue 23), not only the command line. */
import type { Migration } from "../database.ts";

/**
 * sha256 over the program's files at approval (`src/mcp/program_pin.ts`); "" for HTTP servers
 * and for approvals made before: such a stdio server starts again after `radar mcp approve`.
 */
export const mcpProgramHashMigration: Migration = {
  version: 30,
  name: "030_mcp_program_hash",
  sql: `ALTER TABLE mcp_approvals ADD COLUMN program_hash TEXT NOT NULL DEFAULT '';`,
};
