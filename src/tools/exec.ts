/**
 * `exec`: run a shell command inside the OS sandbox (the boundary), after the approval policy
 * (what needs a yes). Without a sandbox every command needs a yes in chat; unattended, none runs.
 */
import { z } from "zod";
import type { Tool } from "../core/tool.ts";
import { defineTool, runOnFirstCall } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import { isPlainlyReadOnly } from "./exec/approval_policy.ts";
import type { FileAccessDependencies } from "../adapters/os/file_access.ts";
import type { ToolDependencies } from "./dependencies.ts";

/** The tool's run, loaded with its first call (a run that runs no command loads none of it). */
function execModule(): Promise<typeof import("./exec_run.ts")> {
  return import(new URL("./exec_run.ts", import.meta.url).href);
}

/** exec's arguments, built on first use (offered as written in src/core/tool_parameters.ts). */
export const execInput = lazyValue(() =>
  z.object({
    command: z.string().min(1).max(10_000),
    cwd: z.string().optional(),
  })
);

/** Creates the exec tool. */
export function execTool(deps: FileAccessDependencies & Pick<ToolDependencies, "secrets">): Tool {
  const settings = deps.config.tools.exec;
  return defineTool({
    name: "exec",
    // Plainly read-only commands change nothing; anything else may write the writable roots, and
    // with tools.exec.allow_network may send data out.
    effect: ({ command }) =>
      settings.allow_network ? "sends_out" : isPlainlyReadOnly(command) ? "none" : "local_write",
    description: "Run a shell command",
    keywords: ["run", "command", "shell", "terminal", "exec", "execute", "script", "bash"],
    parameters: toolParameters.exec,
    input: execInput,
    run: runOnFirstCall(async () => (await execModule()).execRun(deps)),
  });
}
