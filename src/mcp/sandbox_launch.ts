/**
 * The command line that starts an approved stdio MCP server inside the exec sandbox: the
 * approved folders are its only writable roots (checked like `tools.exec.writable_roots`: a
 * folder holding a protected location is dropped), every secret and Radar folder is hidden, no
 * network unless approved, and an environment holding only PATH and the approved variables.
 */
// @ts-types="@types/shell-quote"
import { quote } from "shell-quote";
import { execSandbox, execSandboxSpec, execUserRoots } from "../tools/exec/sandbox_spec.ts";
import { sandboxedArgv } from "../tools/exec/sandbox.ts";
import type { FileToolDependencies } from "../tools/file_access.ts";
import type { McpApproval } from "./approval.ts";
import type { ProcessLaunch } from "./sandboxed_stdio_transport.ts";

/** The PATH a server gets (its own PATH is not inherited unless approved as a variable). */
const defaultPath = "/usr/local/bin:/usr/bin:/bin";
/** CPU seconds over a server's whole life; past them the kernel kills it (restarted on use). */
const cpuSecondsPerLife = 600;

/** The sandboxed launch of one server, or why it cannot start. */
export function sandboxLaunch(
  deps: FileToolDependencies,
  approval: McpApproval,
): { launch: ProcessLaunch; folders: string[] } | { problem: string } {
  const sandbox = execSandbox(deps);
  if (!sandbox.program) {
    return { problem: `no sandbox for MCP servers: ${sandbox.problem}` };
  }
  const scoped: FileToolDependencies = {
    ...deps,
    config: {
      ...deps.config,
      tools: {
        ...deps.config.tools,
        exec: { ...deps.config.tools.exec, writable_roots: approval.folders },
      },
    },
  };
  const folders = execUserRoots(scoped);
  const cwd = folders[0] ?? "/";
  const spec = execSandboxSpec(scoped, { cwd, writeRoots: true, uid: Deno.uid() });
  spec.writableRoots = folders; // not exec's shared scratch folder
  spec.allowNetwork = approval.network;
  spec.limits = { ...spec.limits, cpuSeconds: cpuSecondsPerLife };
  const env: Record<string, string> = { PATH: defaultPath };
  for (const name of approval.env) {
    const value = deps.env[name];
    if (value !== undefined) env[name] = value;
  }
  const command = `exec ${quote(approval.command)}`;
  return { launch: { argv: sandboxedArgv(sandbox.program, spec, command), env, cwd }, folders };
}
