/** What the user approved an MCP server to be and to touch, and the port that stores it. */
import { createHash } from "node:crypto";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

/** One approved server: the exact command line (or URL) and its grants. */
export interface McpApproval {
  name: string;
  /** argv of a stdio server (empty for HTTP). */
  command: string[];
  /** URL of an HTTP server ("" for stdio). */
  url: string;
  /** sha256 of the command line or URL; a different one is not approved. */
  commandHash: string;
  /** Absolute folders it may read and write. */
  folders: string[];
  /** Absolute folders under home it may read only (the rest of home is hidden). */
  readFolders: string[];
  network: boolean;
  /** Environment variable names passed through. */
  env: string[];
  /** Hosts an HTTP server may be reached at. */
  hosts: string[];
  /** The tools it listed when approved (offered without starting it). */
  tools: McpTool[];
  approvedAt: string;
}

/** Stores MCP approvals. */
export interface McpApprovals {
  get(name: string): McpApproval | undefined;
  list(): McpApproval[];
  save(approval: McpApproval): void;
  remove(name: string): boolean;
}

/** The hash an approval pins: sha256 over the JSON of argv (stdio) or the URL (HTTP). */
export function commandHash(command: readonly string[], url: string): string {
  const text = url ? `url:${url}` : `argv:${JSON.stringify(command)}`;
  return createHash("sha256").update(text).digest("hex");
}
