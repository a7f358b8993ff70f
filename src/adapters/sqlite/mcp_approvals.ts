/** SQLite storage of MCP server approvals (schema 012_mcp). */
import type { DatabaseSync } from "node:sqlite";
import type { McpApproval, McpApprovals } from "../../mcp/approval.ts";
import { type Row, selectAll, selectOne } from "./rows.ts";
import { write } from "./write.ts";

function toApproval(row: Row): McpApproval {
  return {
    name: row.name as string,
    command: JSON.parse(row.command_json as string),
    url: row.url as string,
    commandHash: row.command_hash as string,
    programHash: row.program_hash as string,
    folders: JSON.parse(row.folders_json as string),
    readFolders: JSON.parse(row.read_folders_json as string),
    network: row.network === 1,
    env: JSON.parse(row.env_json as string),
    hosts: JSON.parse(row.hosts_json as string),
    tools: JSON.parse(row.tools_json as string),
    approvedAt: row.approved_at as string,
    ...(row.tools_changed_at
      ? {
        toolChanges: JSON.parse((row.tool_changes_json as string | null) ?? "[]"),
        toolsChangedAt: row.tools_changed_at as string,
      }
      : {}),
  };
}

/** MCP approvals in Radar's SQLite file. */
export class SqliteMcpApprovals implements McpApprovals {
  constructor(private readonly db: DatabaseSync) {}

  /** The approval of one server, if any. */
  get(name: string): McpApproval | undefined {
    return selectOne(this.db, toApproval, "SELECT * FROM mcp_approvals WHERE name = ?", name);
  }

  /** Every approval, by name. */
  list(): McpApproval[] {
    return selectAll(this.db, toApproval, "SELECT * FROM mcp_approvals ORDER BY name");
  }

  /** Records (or replaces) an approval. */
  save(approval: McpApproval): void {
    write(
      this.db,
      "the MCP approval",
      `INSERT OR REPLACE INTO mcp_approvals
       (name, command_json, url, command_hash, folders_json, read_folders_json, network, env_json, hosts_json,
        tools_json, approved_at, program_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      approval.name,
      JSON.stringify(approval.command),
      approval.url,
      approval.commandHash,
      JSON.stringify(approval.folders),
      JSON.stringify(approval.readFolders),
      approval.network ? 1 : 0,
      JSON.stringify(approval.env),
      JSON.stringify(approval.hosts),
      JSON.stringify(approval.tools),
      approval.approvedAt,
      approval.programHash ?? "",
    );
  }

  /** Flags an approved server whose tools changed since approval (cleared by saving it again). */
  markToolsChanged(name: string, changes: string[], at: Date): void {
    write(
      this.db,
      "the MCP approval",
      "UPDATE mcp_approvals SET tool_changes_json = ?, tools_changed_at = ? WHERE name = ?",
      JSON.stringify(changes),
      at.toISOString(),
      name,
    );
  }

  /** Removes an approval; false when there was none. */
  remove(name: string): boolean {
    return write(this.db, "the MCP approval", "DELETE FROM mcp_approvals WHERE name = ?", name)
      .changes > 0;
  }
}
