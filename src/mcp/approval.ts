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
  /**
   * sha256 over the program's files (`program_pin.ts`) at approval: a stdio server whose files
   * changed since does not start. "" for HTTP servers (and approvals made before pinning).
   */
  programHash?: string;
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
  /**
   * Set when the running server's tool list stopped matching `tools` ("echo: changed",
   * "sneaky: new", "old: removed"): changed tools are refused until `radar mcp approve`.
   */
  toolChanges?: string[];
  toolsChangedAt?: string;
}

/** Stores MCP approvals. */
export interface McpApprovals {
  get(name: string): McpApproval | undefined;
  list(): McpApproval[];
  save(approval: McpApproval): void;
  remove(name: string): boolean;
  /** Records that a server's tools changed since approval (saving the approval clears it). */
  markToolsChanged(name: string, changes: string[], at: Date): void;
}

/**
 * How `listed` differs from the approved tools: one entry per tool that is new, removed, or whose
 * description or input schema changed (key order ignored). Empty when they match.
 */
export function toolChanges(approved: readonly McpTool[], listed: readonly McpTool[]): string[] {
  const before = new Map(approved.map((tool) => [tool.name, fingerprint(tool)]));
  const after = new Map(listed.map((tool) => [tool.name, fingerprint(tool)]));
  const changes: string[] = [];
  for (const [name, print] of after) {
    if (!before.has(name)) changes.push(`${name}: new`);
    else if (before.get(name) !== print) changes.push(`${name}: changed`);
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push(`${name}: removed`);
  return changes.sort();
}

/**
 * What a re-approval shows, one line per tool that is new, changed or removed since `approved`:
 * the description it has now (and had), so the person sees what the model will be told.
 */
export function toolChangeLines(
  approved: readonly McpTool[],
  listed: readonly McpTool[],
): string[] {
  const before = new Map(approved.map((tool) => [tool.name, tool]));
  const quoted = (tool: McpTool) => JSON.stringify((tool.description ?? "").slice(0, 500));
  return toolChanges(approved, listed).map((change) => {
    const name = change.slice(0, change.lastIndexOf(": "));
    const now = listed.find((tool) => tool.name === name);
    const was = before.get(name);
    if (!now) return `${name} (removed)`;
    if (!was) return `${name} (new): ${quoted(now)}`;
    const schema = JSON.stringify(was.inputSchema ?? {}) === JSON.stringify(now.inputSchema ?? {})
      ? ""
      : "; its input changed too";
    return quoted(was) === quoted(now)
      ? `${name} (changed): its input changed`
      : `${name} (changed): ${quoted(now)}, was ${quoted(was)}${schema}`;
  });
}

/** A short key of one set of tool changes (a notification's outbox scope names it). */
export function toolChangesKey(changes: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(changes)).digest("hex").slice(0, 16);
}

/** The tool names `toolChanges` lists as changed or removed (calls to them are refused). */
export function changedToolNames(changes: readonly string[]): Set<string> {
  return new Set(
    changes.filter((change) => !change.endsWith(": new")).map((change) =>
      change.slice(0, change.lastIndexOf(": "))
    ),
  );
}

function fingerprint(tool: McpTool): string {
  return canonical({ description: tool.description ?? "", input: tool.inputSchema ?? {} });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return `{${
      entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The hash an approval pins: sha256 over the JSON of argv (stdio) or the URL (HTTP). */
export function commandHash(command: readonly string[], url: string): string {
  const text = url ? `url:${url}` : `argv:${JSON.stringify(command)}`;
  return createHash("sha256").update(text).digest("hex");
}
