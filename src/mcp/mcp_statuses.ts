/**
 * Which MCP servers Radar knows and where each stands with the user (approved, not yet, or
 * changed since approval): what `radar mcp list`, `radar status` and the dashboard show, read
 * without loading the MCP client.
 */
import type { RadarConfig } from "../config/schema.ts";
import { commandHash, type McpApprovals } from "./approval.ts";

/** Where a server stands with the user. */
type McpServerState = "approved" | "pending" | "changed";

/** One server as `radar mcp list` and the dashboard show it. */
export interface McpServerStatus {
  name: string;
  /** The argv or URL, as one line. */
  target: string;
  state: McpServerState;
  /** What it may touch (the approval's grants, or what the config asks for). */
  folders: string[];
  readFolders: string[];
  network: boolean;
  env: string[];
  hosts: string[];
  origin: "config" | "cli";
  /** Approved, but its tools changed since ("echo: changed", "x: new"): needs re-approval. */
  toolChanges?: string[];
}

/** Every known server: config entries (approved, pending or changed) and CLI-added approvals. */
export function mcpServerStatuses(
  config: RadarConfig,
  approvals: McpApprovals,
): McpServerStatus[] {
  const statuses: McpServerStatus[] = [];
  const approved = new Map(approvals.list().map((approval) => [approval.name, approval]));
  for (const entry of config.mcp.servers) {
    const approval = approved.get(entry.name);
    approved.delete(entry.name);
    const hash = commandHash(entry.command, entry.url);
    const state = !approval ? "pending" : approval.commandHash === hash ? "approved" : "changed";
    const grants = state === "approved" ? approval! : undefined;
    statuses.push({
      name: entry.name,
      target: entry.url || entry.command.join(" "),
      state,
      folders: grants?.folders ?? entry.folders,
      readFolders: grants?.readFolders ?? entry.read_folders,
      network: grants?.network ?? entry.network,
      env: grants?.env ?? entry.env,
      hosts: grants?.hosts ?? (entry.url ? [hostOf(entry.url)] : []),
      origin: "config",
      ...(grants?.toolChanges ? { toolChanges: grants.toolChanges } : {}),
    });
  }
  for (const approval of approved.values()) {
    statuses.push({
      name: approval.name,
      target: approval.url || approval.command.join(" "),
      state: "approved",
      folders: approval.folders,
      readFolders: approval.readFolders,
      network: approval.network,
      env: approval.env,
      hosts: approval.hosts,
      origin: "cli",
      ...(approval.toolChanges ? { toolChanges: approval.toolChanges } : {}),
    });
  }
  return statuses;
}

/** The host name of an URL (lower case, no brackets). */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
}
