/** `exec`'s run (src/tools/exec.ts), loaded with the tool's first call. */
import { redactText } from "../core/secrets.ts";
import { failed, refused, timedOut, type ToolContext, type ToolOutput } from "../core/tool.ts";
import { decideApproval } from "./exec/approval_policy.ts";
import { runProcess } from "../adapters/os/run_process.ts";
import { sandboxedArgv } from "../adapters/os/sandbox.ts";
import { execSandbox, execSandboxSpec, execUserRoots } from "../adapters/os/sandbox_spec.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import { childEnvironment, environmentSecrets } from "../adapters/os/child_environment.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { firstLine } from "../core/errors.ts";

/**
 * exec's run: the path guard for `cwd`, the approval policy (what needs a yes), then the command
 * in the OS sandbox (or, without one, after the yes), its output capped.
 */
export function execRun(
  deps: FileAccessDependencies & Pick<ToolDependencies, "secrets">,
): (args: { command: string; cwd?: string }, context: ToolContext) => Promise<ToolOutput> {
  const settings = deps.config.tools.exec;
  return async ({ command, cwd }, context) => {
    const guard = pathGuardFor(deps);
    const folder = guard.check(cwd ?? deps.cwd ?? Deno.cwd(), "read");
    if (!folder.ok) return refused(folder.reason);
    const sandbox = execSandbox(deps);
    const userRoots = sandbox.program ? execUserRoots(deps) : [];
    const approval = decideApproval({
      command,
      mode: settings.mode,
      sandboxed: sandbox.program !== undefined,
      userRoots: userRoots.map((root) => guard.display(root)),
      interactive: context.interactive && context.confirm !== undefined,
    });
    if (approval.action === "refuse") return refused(`Refused: ${approval.reason}.`);
    let writeRoots = approval.action === "run" && approval.writeRoots;
    if (approval.action === "ask") {
      const answer = await confirm(approval.question, context);
      if (answer !== true) return refused(answer);
      writeRoots = true;
    }
    let argv: string[];
    try {
      argv = sandbox.program
        ? sandboxedArgv(
          sandbox.program,
          execSandboxSpec(deps, { cwd: folder.path, writeRoots, uid: Deno.uid() }),
          command,
        )
        : ["/bin/sh", "-c", command];
    } catch (error) {
      return failed(`Cannot prepare the sandbox: ${firstLine(error)}`);
    }
    let result;
    try {
      result = await runProcess({
        argv,
        cwd: folder.path,
        env: childEnvironment(deps.env, deps.secrets.known()),
        timeoutMs: settings.timeout_seconds * 1000,
        maxOutputBytes: settings.max_output_chars,
        signal: context.signal,
      });
    } catch (error) {
      return failed(`Cannot run the command: ${firstLine(error)}`);
    }
    // The registry masks the known secrets; the variables the command was given are exec's own.
    let text = redactText(formatResult(result), environmentSecrets(deps.env));
    if (approval.action === "run" && approval.note) text += `\n[${approval.note}]`;
    if (result.timedOut) {
      return timedOut(
        `Timed out after ${settings.timeout_seconds} s; the command and its children were killed (tools.exec.timeout_seconds).\n${text}`,
      );
    }
    if (result.aborted) return failed(`Cancelled; the command was killed.\n${text}`);
    return text;
  };
}

async function confirm(question: string, context: ToolContext): Promise<true | string> {
  const yes = await context.confirm!(question);
  return yes
    ? true
    : "The user declined to run this command. Do not retry it; ask what to do instead.";
}

function formatResult(result: Awaited<ReturnType<typeof runProcess>>): string {
  const parts = [`exit code ${result.code}${result.signal ? ` (${result.signal})` : ""}`];
  const section = (name: string, text: string, cut: number) => {
    if (!text && !cut) return;
    parts.push(`--- ${name} ---\n${text.replace(/\n$/, "")}`);
    if (cut) parts.push(`[${name} cut: ${cut} more bytes (tools.exec.max_output_chars)]`);
  };
  section("stdout", result.stdout, result.stdoutCut);
  section("stderr", result.stderr, result.stderrCut);
  return parts.join("\n");
}
