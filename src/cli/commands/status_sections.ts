/** The sections of `radar status` after the basics: daemon, exec, plugins. */
import type { Runtime } from "../../runtime/runtime.ts";
import { execStatusLines } from "./exec_status.ts";
import { daemonStatus } from "./daemon_status.ts";
import { pluginStatusLines } from "./plugin_status.ts";
import { sourceStatusLines } from "../../sources/source_status.ts";
import { mcpStatusLines } from "../../mcp/mcp_views.ts";
import { SqliteMcpApprovals } from "../../adapters/sqlite/mcp_approvals.ts";
import { checkStatusLines } from "../../sources/checks/check_status.ts";
import { execSandbox } from "../../tools/exec/sandbox_spec.ts";
import { githubStatusLines } from "../../sources/github/github_setup.ts";

/** A section of `radar status` contributed by a concern (daemon, tools, plugins). */
export type StatusSection = (runtime: Runtime) => Promise<string[]> | string[];

/** Extra status sections, in order; concerns append theirs. */
export const statusSections: StatusSection[] = [
  daemonStatus,
  (runtime) => execStatusLines(runtime, Deno.env.toObject()),
  (runtime) => pluginStatusLines(runtime),
  (runtime) => sourceStatusLines(runtime.config, runtime.db),
  (runtime) => mcpStatusLines(runtime.config, new SqliteMcpApprovals(runtime.db)),
  (runtime) =>
    checkStatusLines(
      runtime.config,
      runtime.db,
      execSandbox({ ...runtime, env: Deno.env.toObject() }).problem,
    ),
  (runtime) => githubStatusLines(runtime.config, runtime.db, Deno.env.toObject()),
];
