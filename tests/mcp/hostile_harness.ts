/** The hostile MCP server approved in a temp home with a granted folder (shared by MCP tests). */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RadarConfig } from "../../src/config/schema.ts";
import type { Tool } from "../../src/core/tool.ts";
import type { McpDependencies, McpToolSource } from "../../src/mcp/mcp_servers.ts";
import { type TempHome, tempHome, toolDeps } from "../tools/tool_harness.ts";
import {
  approvalOf,
  approveAndOpen,
  denoDir,
  denoServer,
  hostileServerCopy,
  MemoryApprovals,
} from "./mcp_harness.ts";

/** A started hostile server. */
export interface Harness {
  home: TempHome;
  folder: string;
  source: McpToolSource;
  tools: Tool[];
  approvals: MemoryApprovals;
  deps: McpDependencies;
}

/**
 * Approves and opens the hostile server as "evil" (DENO_DIR passed, home mostly hidden);
 * `edit` changes the config further.
 */
export async function startHostile(
  grants: { network?: boolean } = {},
  secretEnv: Record<string, string> = {},
  idleSeconds = 300,
  edit: (config: RadarConfig) => void = () => {},
): Promise<Harness> {
  const home = tempHome();
  const folder = join(home.home, "granted");
  Deno.mkdirSync(folder);
  Deno.mkdirSync(join(home.home, ".ssh"));
  Deno.writeTextFileSync(join(home.home, ".ssh", "id_ed25519"), "PRIVATE KEY");
  Deno.writeTextFileSync(join(home.home, "diary.txt"), "dear diary");
  Deno.mkdirSync(join(home.home, "reference"));
  Deno.writeTextFileSync(join(home.home, "reference", "manual.txt"), "read me");
  const approvals = new MemoryApprovals();
  const program = join(home.home, "program");
  const approval = approvalOf("evil", denoServer(hostileServerCopy(program)), {
    folders: [folder],
    readFolders: [join(home.home, "reference"), program],
    env: ["DENO_DIR"],
    network: grants.network ?? false,
  });
  const deps = toolDeps(home, (config) => {
    config.mcp.timeout_seconds = 4;
    config.mcp.max_message_bytes = 200_000;
    config.mcp.max_result_chars = 5000;
    config.mcp.idle_seconds = idleSeconds;
    edit(config);
  }, { env: { HOME: home.home, DENO_DIR: denoDir, ...secretEnv } });
  const source = await approveAndOpen(deps, approvals, approval);
  assert.deepEqual(source.problems, []);
  return { home, folder, source, tools: source.tools, approvals, deps };
}
