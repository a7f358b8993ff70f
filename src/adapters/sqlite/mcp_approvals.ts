/** SQLite storage of MCP server approvals (schema 012_mcp). */
import type { DatabaseSync } from "node:sqlite";
import type { McpApproval, McpApprovals } from "../../mcp/approval.ts";
import { statement } from "./statements.ts";
import { write } from "./write.ts";

interface ApprovalRow {
  name: string;
  command_json: string;
  url: string;
  command_hash: string;
  folders_json: string;
  read_folders_json: string;
  network: number;
  env_json: string;
  hosts_json: string;
  tools_json: string;
  approved_at: string;
  tool_changes_json: string | null;
  tools_changed_at: string | null;
  program_hash: string;
}

function toApproval(row: ApprovalRow): McpApproval {
  return {
    name: row.name,
    command: JSON.parse(row.command_json),
    url: row.url,
    commandHash: row.command_hash,
    programHash: row.program_hash,
    folders: JSON.parse(row.folders_json),
    readFolders: JSON.parse(row.read_folders_json),
    network: row.network === 1,
    env: JSON.parse(row.env_json),
    hosts: JSON.parse(row.hosts_json),
    tools: JSON.parse(row.tools_json),
    approvedAt: row.approved_at,
    ...(row.tools_changed_at
      ? {
        toolChanges: JSON.parse(row.tool_changes_json ?? "[]"),
        toolsChangedAt: row.tools_changed_at,
      }
      : {}),
  };
}

/** MCP approvals in Radar's SQLite file. */
export class SqliteMcpApprovals implements McpApprovals {
  constructor(private readonly db: DatabaseSync) {}

  /** The approval of one server, if any. */
  get(name: string): McpApproval | undefined {
    const row = statement(this.db, "SELECT * FROM mcp_approvals WHERE name = ?").get(name);
    return row ? toApproval(row as unknown as ApprovalRow) : undefined;
  }

  /** Every approval, by name. */
  list(): McpApproval[] {
    return statement(this.db, "SELECT * FROM mcp_approvals ORDER BY name").all()
      .map((row) => toApproval(row as unknown as ApprovalRow));
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
