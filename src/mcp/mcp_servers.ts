/**
 * Which MCP servers may run (config entries and `radar mcp add`, each only with a matching
 * approval) and their tools for the registry. A server that cannot start is reported, never fatal.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Destinations, Tool } from "../core/tool.ts";
import { originsOf } from "../core/origins.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import {
  changedToolNames,
  type McpApproval,
  type McpApprovals,
  toolChanges,
  toolChangesKey,
} from "./approval.ts";
import { mcpServerStatuses } from "./mcp_statuses.ts";

export { hostOf, type McpServerStatus, mcpServerStatuses } from "./mcp_statuses.ts";
import { guardedMcpFetch } from "./http_guard.ts";
import { mcpTools } from "./mcp_tools.ts";
import { sandboxLaunch } from "./sandbox_launch.ts";
import { McpServerConnection } from "./server_connection.ts";
import { explainHttpFailure, explainStdioFailure, type ProcessReport } from "./server_failure.ts";
import type { Secrets } from "../core/secrets.ts";

/** The running side: connections and their tools. */
export interface McpToolSource {
  tools: Tool[];
  /** One line per server that cannot run. */
  problems: string[];
  close(): Promise<void>;
}

/** Server dependencies: the file-tool places (for the sandbox) and the HTTP client. */
export type McpDependencies = FileAccessDependencies & {
  fetch?: typeof fetch;
  /** Warnings (a server whose tools changed); none when absent. */
  warn?: (line: string) => void;
  /**
   * Tells the person once per `scope` (a notification through the outbox): a server whose tools
   * changed since approval, with what to run to look and approve again. None when absent.
   */
  tell?: (scope: string, title: string, message: string) => void;
  /** The known secrets, masked in what a failing server printed (absent: none known). */
  secrets?: Pick<Secrets, "known">;
};

/**
 * The tools of every approved server, from the list kept with its approval: nothing starts until
 * a tool is called (then the server starts in its sandbox, and again after it dies).
 */
export function mcpToolSource(
  deps: McpDependencies,
  approvals: McpApprovals,
): McpToolSource {
  const settings = deps.config.mcp;
  const statuses = mcpServerStatuses(deps.config, approvals);
  const connections: McpServerConnection[] = [];
  const problems: string[] = [];
  const tools: Tool[] = [];
  for (const status of statuses) {
    const approval = approvals.get(status.name);
    if (status.state !== "approved" || !approval) {
      problems.push(
        `MCP server ${status.name} is ${status.state === "pending" ? "not approved" : "changed"}` +
          ` (radar mcp approve ${status.name})`,
      );
      continue;
    }
    // Tools changed or removed since approval are refused (new ones were never offered).
    let blocked = changedToolNames(approval.toolChanges ?? []);
    const compare = (listed: McpTool[]) => {
      const changes = toolChanges(approval.tools, listed.slice(0, maxToolsPerServer));
      if (!changes.length || changes.join() === [...(approval.toolChanges ?? [])].join()) return;
      blocked = changedToolNames(changes);
      approval.toolChanges = changes;
      try {
        approvals.markToolsChanged(approval.name, changes, new Date());
      } catch { /* a read-only database: refused in this process all the same */ }
      deps.warn?.(
        `MCP server ${approval.name} changed its tools since approval (${
          changes.join(", ")
        }); only unchanged approved tools are offered (radar mcp approve ${approval.name})`,
      );
      deps.tell?.(
        `mcp:${approval.name}:tools:${toolChangesKey(changes)}`,
        `MCP server ${approval.name} changed its tools`,
        `${changes.join(", ")} since you approved it: Radar no longer runs the changed ones. ` +
          `To look at them and approve again: radar mcp approve ${approval.name}`,
      );
    };
    const connection = connectionFor(deps, approval, compare);
    if (typeof connection === "string") {
      problems.push(`MCP server ${approval.name}: ${connection}`);
      continue;
    }
    connections.push(connection);
    tools.push(...mcpTools(approval.name, approval.tools, connection, {
      destinations: mcpDestinations(approval),
      results: settings.servers.find((entry) => entry.name === approval.name)?.public_results
        ? "public"
        : "private",
      maxResultChars: settings.max_result_chars,
      maxSchemaChars: settings.max_schema_chars,
      refusal: (tool) =>
        blocked.has(tool)
          ? `MCP server ${approval.name} changed its tool ${tool} since it was approved; ` +
            `the user must approve it again (radar mcp approve ${approval.name})`
          : undefined,
    }));
  }
  return {
    tools,
    problems,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

/** Starts a server once (sandboxed, under the deadline) and returns the tools it lists. */
export async function discoverTools(
  deps: McpDependencies,
  approval: McpApproval,
): Promise<McpTool[]> {
  const connection = connectionFor(deps, approval);
  if (typeof connection === "string") throw new Error(connection);
  try {
    return (await connection.listTools()).slice(0, maxToolsPerServer);
  } finally {
    await connection.close();
  }
}

/** Tools kept per server (a server listing thousands would crowd the registry). */
const maxToolsPerServer = 64;

/** The connection of one approved server, or why it cannot have one. */
function connectionFor(
  deps: McpDependencies,
  approval: McpApproval,
  onToolsListed?: (tools: McpTool[]) => void,
): McpServerConnection | string {
  const settings = deps.config.mcp;
  const timeoutMs = settings.timeout_seconds * 1000;
  if (approval.url) {
    const url = new URL(approval.url);
    const fetcher = guardedMcpFetch(
      approval.hosts,
      deps.fetch,
      undefined,
      settings.max_message_bytes,
    );
    return new McpServerConnection({
      name: approval.name,
      timeoutMs,
      onToolsListed,
      explain: (error) => explainHttpFailure(error, approval.url),
      open: async () => {
        const { StreamableHTTPClientTransport } = await import(
          "@modelcontextprotocol/sdk/client/streamableHttp.js"
        );
        return new StreamableHTTPClientTransport(url, { fetch: fetcher });
      },
    });
  }
  const first = sandboxLaunch(deps, approval);
  if ("problem" in first) return first.problem;
  let hidden = first.hidden;
  let secrets: string[] = [];
  return new McpServerConnection({
    name: approval.name,
    timeoutMs,
    idleMs: settings.idle_seconds * 1000,
    onToolsListed,
    // Its stderr may echo the variables it was given: they are masked like Radar's own secrets.
    explain: (error, transport) =>
      explainStdioFailure(error, transport as unknown as ProcessReport, {
        hidden,
        secrets,
        command: approval.command,
      }),
    // Computed again at every start: what home holds (and so what is hidden) changes.
    open: async () => {
      const launch = sandboxLaunch(deps, approval);
      if ("problem" in launch) throw new Error(launch.problem);
      hidden = launch.hidden;
      secrets = [
        ...Object.entries(launch.launch.env).flatMap(([name, value]) =>
          name === "PATH" ? [] : [value]
        ),
        ...(deps.secrets?.known() ?? []),
      ];
      const { SandboxedStdioTransport }: typeof import("./sandboxed_stdio_transport.ts") =
        await import(new URL("./sandboxed_stdio_transport.ts", import.meta.url).href);
      return new SandboxedStdioTransport(launch.launch, settings.max_message_bytes);
    },
  });
}

/**
 * Where an MCP server's calls send: an HTTP server's origin; a stdio server with network access,
 * the server itself (`mcp:NAME`: the user approved it, and it reaches what it likes); one without,
 * nowhere off the machine.
 */
function mcpDestinations(approval: McpApproval): Destinations {
  if (approval.url) return originsOf([approval.url]);
  return approval.network ? [`mcp:${approval.name}`] : [];
}
