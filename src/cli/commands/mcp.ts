/** `radar mcp list|add|approve|remove`: MCP servers as tool sources, approved with their grants. */
import { programHash } from "../../mcp/program_pin.ts";
import { defaultPath } from "../../mcp/sandbox_launch.ts";
import { mcpServerNamePattern, mcpServerNameRule } from "../../config/mcp_schema.ts";
import type { Command } from "commander";
import { resolve } from "node:path";
import { expandHome } from "../../config/paths.ts";
import { firstLine, NotFoundError, RadarError, UsageError } from "../../core/errors.ts";
import {
  commandHash,
  type McpApproval,
  type McpApprovals,
  toolChangeLines,
} from "../../mcp/approval.ts";
import { terminalConfirm } from "../terminal_io.ts";
import {
  discoverTools,
  hostOf,
  type McpDependencies,
  type McpServerStatus,
  mcpServerStatuses,
} from "../../mcp/mcp_servers.ts";
import type { Radar } from "../../runtime/open_radar.ts";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";

/** Options of `radar mcp add`. */
interface AddOptions {
  url?: string;
  folder?: string[];
  read?: string[];
  network?: boolean;
  env?: string[];
}

/** Registers `mcp` and its subcommands. */
export function registerMcp(program: Command, context: CliContext): void {
  const mcp = program.command("mcp").description("MCP servers as tool sources (sandboxed)");
  const open = async () => {
    const radar = await context.radar();
    return { radar, approvals: radar.mcp.approvals };
  };

  mcp.command("list").description("list MCP servers, their state and grants")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const { radar, approvals } = await open();
      const statuses = mcpServerStatuses(radar.config, approvals);
      const empty = "No MCP servers (add one to mcp.servers or `radar mcp add`).";
      await printListing(context, options.json, statuses, empty, describeStatus);
    });

  mcp.command("add")
    .description("add and approve a server: radar mcp add files --folder ~/notes -- CMD ARGS…")
    .argument("<name>")
    .argument("[command...]", "the program and its arguments (no shell)")
    .option("--url <url>", "a streamable HTTP server instead of a command")
    .option("--folder <path...>", "folders it may read and write")
    .option("--read <path...>", "folders in your home it may only read (the rest is hidden)")
    .option("--network", "allow it network access")
    .option("--env <name...>", "environment variables passed through")
    .action(async (name: string, command: string[], options: AddOptions) => {
      checkName(name);
      if ((command.length > 0) === Boolean(options.url)) {
        throw new UsageError("Cannot add the MCP server: give either a command or --url");
      }
      const { radar, approvals } = await open();
      if (radar.config.mcp.servers.some((entry) => entry.name === name)) {
        throw new UsageError(
          `Cannot add ${name}: mcp.servers in the config has it (radar mcp approve ${name})`,
        );
      }
      const approval = approvalFrom(context, name, command, options.url ?? "", options);
      await approveWithTools(context, radar, approvals, approval);
    });

  mcp.command("approve")
    .description("approve a server from mcp.servers with the grants it asks for")
    .argument("<name>")
    .action(async (name: string) => {
      const { radar, approvals } = await open();
      const entry = radar.config.mcp.servers.find((server) => server.name === name);
      const existing = approvals.get(name);
      if (!entry && !existing) throw new NotFoundError(`Cannot approve ${name}: no such server`);
      const approval = entry
        ? approvalFrom(context, name, entry.command, entry.url, {
          folder: entry.folders,
          read: entry.read_folders,
          network: entry.network,
          env: entry.env,
        })
        : existing!;
      await approveWithTools(context, radar, approvals, approval);
    });

  mcp.command("remove").description("remove a server's approval (its tools go away)")
    .argument("<name>")
    .action(async (name: string) => {
      const { approvals } = await open();
      if (!approvals.remove(name)) {
        throw new NotFoundError(`Cannot remove ${name}: it is not approved`);
      }
      context.io.stdout(`Removed the approval of MCP server ${name}.\n`);
    });
}

function checkName(name: string): void {
  if (!mcpServerNamePattern.test(name)) {
    throw new UsageError(`Cannot add ${name}: ${mcpServerNameRule}`);
  }
}

/** The approval a command line and its grants make (folders made absolute). */
function approvalFrom(
  context: CliContext,
  name: string,
  command: string[],
  url: string,
  options: AddOptions,
): McpApproval {
  let hosts: string[] = [];
  if (url) {
    try {
      hosts = [hostOf(url)];
    } catch {
      throw new UsageError(`Cannot add ${name}: ${url} is not a URL`);
    }
  }
  for (const variable of options.env ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      throw new UsageError(`Cannot add ${name}: ${variable} is not a variable name`);
    }
  }
  const absolute = (folders: string[] = []) =>
    folders.map((folder) => resolve(context.io.cwd, expandHome(folder, context.io.env)));
  return {
    name,
    command: url ? [] : command,
    url,
    commandHash: commandHash(url ? [] : command, url),
    folders: absolute(options.folder),
    readFolders: absolute(options.read),
    network: Boolean(options.network),
    env: options.env ?? [],
    hosts,
    tools: [],
    approvedAt: new Date().toISOString(),
  };
}

/** Starts the server once in its sandbox, keeps its tool list, and saves the approval. */
async function approveWithTools(
  context: CliContext,
  radar: Radar,
  approvals: McpApprovals,
  approval: McpApproval,
): Promise<void> {
  const deps: McpDependencies = {
    config: radar.config,
    configPath: radar.loaded.path,
    dataDir: radar.dataDir,
    env: context.io.env,
    cwd: context.io.cwd,
    secrets: radar.secrets,
  };
  // The program's files as they are now are what this approval pins (checked at every start).
  approval = {
    ...approval,
    programHash: programHash(approval.command, defaultPath, approval.folders[0] ?? "/"),
  };
  let tools;
  try {
    tools = await discoverTools(deps, approval);
  } catch (error) {
    throw new RadarError(
      `Cannot approve ${approval.name}: ${firstLine(error)}`,
    );
  }
  // Approved before: what its tools say now that they did not say then, and a yes to it.
  const before = approvals.get(approval.name);
  const changes = before ? toolChangeLines(before.tools, tools) : [];
  if (changes.length) {
    context.io.stdout(
      `MCP server ${approval.name} changed its tools since you approved them:\n${
        changes.map((line) => `  ${line}\n`).join("")
      }`,
    );
    const question = `Approve ${approval.name} with its tools as they are now?`;
    if (!await terminalConfirm(context.io)(question)) {
      throw new UsageError(
        `Nothing was approved: ${approval.name}'s changed tools stay refused`,
      );
    }
  }
  approvals.save({ ...approval, tools });
  context.io.stdout(
    `Approved MCP server ${approval.name} (${tools.length} tools: ` +
      `${tools.map((tool) => tool.name).join(", ").slice(0, 300)}).\n` +
      `It may touch: ${grants(approval)}\n`,
  );
}

function grants(
  approval: Pick<McpApproval, "folders" | "readFolders" | "network" | "env" | "hosts">,
): string {
  const parts = [
    approval.folders.length ? `folders ${approval.folders.join(", ")}` : "no folders",
    ...(approval.readFolders.length ? [`reading ${approval.readFolders.join(", ")}`] : []),
    approval.network ? "the network" : "no network",
    approval.env.length ? `variables ${approval.env.join(", ")}` : "no variables",
  ];
  if (approval.hosts.length) parts.push(`hosts ${approval.hosts.join(", ")}`);
  return parts.join("; ");
}

function describeStatus(status: McpServerStatus): string {
  const changed = status.toolChanges
    ? `\n  NEEDS RE-APPROVAL: its tools changed since approval (${
      status.toolChanges.slice(0, 10).join(", ")
    }); only unchanged tools run (radar mcp approve ${status.name})`
    : "";
  // Approved no more in full: the changed tools do not run until the person looks again.
  const state = status.toolChanges ? "NEEDS RE-APPROVAL" : status.state;
  return `${status.name}  ${state}  (${status.origin})  ${status.target.slice(0, 120)}\n` +
    `  ${grants(status)}${changed}`;
}
