/** Helpers for MCP tests: approvals in memory, tool lookup, the Deno cache a server needs. */
import { programHash } from "../../src/mcp/program_pin.ts";
import { defaultPath } from "../../src/mcp/sandbox_launch.ts";
import { join } from "node:path";
import { pinnedServerCopy } from "../../scripts/test_caches.ts";
import { commandHash, type McpApproval, type McpApprovals } from "../../src/mcp/approval.ts";
import { discoverTools, type McpDependencies, mcpToolSource } from "../../src/mcp/mcp_servers.ts";
import type { Tool } from "../../src/core/tool.ts";
import { toResult } from "../../src/core/tool.ts";
import { askContext } from "../tools/tool_harness.ts";

/** Approvals kept in a Map (the SQLite store has its own test). */
export class MemoryApprovals implements McpApprovals {
  readonly records = new Map<string, McpApproval>();
  get(name: string) {
    return this.records.get(name);
  }
  list() {
    return [...this.records.values()];
  }
  save(approval: McpApproval) {
    this.records.set(approval.name, approval);
  }
  remove(name: string) {
    return this.records.delete(name);
  }
  markToolsChanged(name: string, changes: string[], at: Date) {
    const approval = this.records.get(name);
    if (approval) {
      this.records.set(name, {
        ...approval,
        toolChanges: changes,
        toolsChangedAt: at.toISOString(),
      });
    }
  }
}

/** An approval of `command` with the given grants. */
export function approvalOf(
  name: string,
  command: string[],
  grants: Partial<
    Pick<McpApproval, "folders" | "readFolders" | "network" | "env" | "hosts" | "url">
  > = {},
): McpApproval {
  const url = grants.url ?? "";
  return {
    name,
    command: url ? [] : command,
    url,
    commandHash: commandHash(url ? [] : command, url),
    // What `radar mcp approve` pins: the program's files as they are now.
    programHash: programHash(url ? [] : command, defaultPath, grants.folders?.[0] ?? "/"),
    folders: grants.folders ?? [],
    readFolders: grants.readFolders ?? [],
    network: grants.network ?? false,
    env: grants.env ?? [],
    hosts: grants.hosts ?? [],
    tools: [],
    approvedAt: "2026-11-23T10:00:00Z",
  };
}

/** The Deno cache folder (servers run from it offline, read-only). */
export const denoDir = Deno.env.get("DENO_DIR") ||
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

/** argv that runs a Deno script or npm: specifier offline with every Deno permission. */
export function denoServer(specifier: string, ...args: string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    "--quiet",
    "--cached-only",
    "--no-prompt",
    "--no-lock",
    "--allow-all",
    specifier,
    ...args,
  ];
}

/**
 * Puts an npm: specifier into the Deno cache (outside the sandbox, where the npm registry is
 * reachable), so a fresh machine can run it `--cached-only` inside the sandbox.
 */
export async function cacheSpecifier(specifier: string): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--quiet", "--no-lock", specifier],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno cache ${specifier}: ${new TextDecoder().decode(output.stderr)}`);
  }
}

/**
 * A copy of the hostile server in `folder` (created), its imports spelled as npm: specifiers:
 * what `deno task setup` caches (scripts/test_caches.ts), so it runs offline in the sandbox.
 */
export function hostileServerCopy(folder: string): string {
  return pinnedServerCopy("tests/fixtures/mcp/hostile_server.ts", folder);
}

/** Runs the tool named `name` (throws when it is missing) and returns its result. */
export async function runTool(tools: readonly Tool[], name: string, args: unknown) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(", ")}`);
  return toResult(await tool.run(args, askContext()));
}

/** Approves `approval` the way `radar mcp approve` does (tools listed once), then the source. */
export async function approveAndOpen(
  deps: McpDependencies,
  approvals: McpApprovals,
  approval: McpApproval,
) {
  approvals.save({ ...approval, tools: await discoverTools(deps, approval) });
  return mcpToolSource(deps, approvals);
}
