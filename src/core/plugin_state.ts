/**
 * Plugins as the CLI and the dashboard see them: one vocabulary for a plugin's state, its
 * permissions as data, and the API both surfaces call (implemented in src/plugins/plugin_api.ts).
 */

/** Where a plugin stands. */
export type PluginStatus = "pending_review" | "enabled" | "disabled" | "failed";

/** How a plugin runs: in the sandbox, or with Radar's own permissions. */
export type PluginTrust = "sandbox" | "local";

/** One row of `radar plugin list` and of the dashboard's plugin page. */
export interface PluginSummary {
  name: string;
  version: string;
  /** "?" when the manifest cannot be read. */
  trustLevel: PluginTrust | "?";
  tools: string[];
  status: PluginStatus;
  description: string;
}

/** One permission of a plugin grant, with its plain words ("read files under ~/Notes"). */
export interface Permission {
  kind: "read" | "write" | "net" | "env";
  /** A path, host[:port] or variable name. */
  target: string;
  description: string;
}

/** A plugin's requested permissions against its last approval (new plugin: all added). */
export interface PermissionDiff {
  /** True when compared with an earlier approval (false: a plugin never approved). */
  sinceApproval: boolean;
  added: Permission[];
  removed: Permission[];
  unchanged: Permission[];
}

/** The outcome of one tests.yaml case. */
export interface PluginTestOutcome {
  name: string;
  passed: boolean;
  detail: string;
}

/** Why a plugin is in review and what its checks found. */
export interface PluginReview {
  name: string;
  source: "install" | "folder" | "llm" | "changed";
  filesHash: string;
  errors: string[];
  tests: PluginTestOutcome[];
  /** LLM create_tool attempts so far. */
  attempts: number;
  updatedAt: string;
}

/** Everything a reviewer needs about one plugin. */
export interface PluginDetails {
  summary: PluginSummary | undefined;
  /** Folder the details were read from. */
  location: string;
  trustLevel: string;
  author: string;
  /** Requested permissions, then what its hooks and prompt variables can do, in plain words. */
  permissions: string[];
  /** Lines starting with "WARNING:" or "Note:". */
  warnings: string[];
  /** Requested permissions against the last approval. */
  permissionDiff: PermissionDiff;
  /** Relative path → text of every file (code to review). */
  files: Record<string, string>;
  review: PluginReview | undefined;
  /** Problems that keep it from being approved. */
  errors: string[];
}

/** The plugin read/write API of the CLI and the dashboard. */
export interface PluginApi {
  /** Every plugin with its status. */
  list(): PluginSummary[];
  /** Details of each plugin waiting for review. */
  pendingReviews(): PluginDetails[];
  /** Details of one plugin. */
  details(name: string): PluginDetails;
  /**
   * Resolves the plugin's granted host names now: a WARNING line for each public name that
   * resolves to this machine or the local network (such a plugin would be refused at start).
   */
  networkWarnings(name: string): Promise<string[]>;
  /** Approves a pending plugin (records hash + grant, enables it). */
  approve(name: string): Promise<PluginSummary | undefined>;
  /** Rejects a pending plugin. */
  reject(name: string, reason?: string): void;
  enable(name: string): Promise<void>;
  disable(name: string): Promise<void>;
}

/**
 * One MCP server as `radar mcp list`, `radar status` and the dashboard show it: the program's
 * name only (its argv may hold secrets), approval state, grants in words, approved tool count.
 */
export interface McpServerSummary {
  name: string;
  program: string;
  state: "approved" | "pending" | "changed";
  grants: string;
  tools: number;
  /** Its tools changed since approval ("echo: changed"): it needs re-approval. */
  toolChanges?: string[];
}
