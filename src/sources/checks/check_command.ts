/**
 * Runs one custom check's command inside the exec sandbox (the same bubblewrap / sandbox-exec
 * command and protected list as the exec tool): scratch folder as cwd and only writable root, no
 * network unless the check allows it, secrets out of the environment, a time-out that kills the
 * whole process group, capped output. There is no unsandboxed fallback.
 */
// @ts-types="@types/shell-quote"
import { quote } from "shell-quote";
import type { CheckEntry } from "../../config/checks_schema.ts";
import { redactText, Secrets } from "../../core/secrets.ts";
import { childEnvironment, environmentSecrets } from "../../adapters/os/child_environment.ts";
import { type ProcessResult, runProcess } from "../../adapters/os/run_process.ts";
import { sandboxedArgv, type SandboxProgram } from "../../adapters/os/sandbox.ts";
import { execSandboxSpec } from "../../adapters/os/sandbox_spec.ts";
import { ensureScratchFolder, type FileAccessDependencies } from "../../adapters/os/file_access.ts";

/** The shell text run by `/bin/sh -c` inside the sandbox: an argv is quoted word by word. */
export function checkShellText(command: CheckEntry["command"]): string {
  return typeof command === "string" ? command : quote(command);
}

/** What one run produced (secrets redacted from the output). */
export interface CheckRun extends ProcessResult {
  durationMs: number;
}

/**
 * Runs `check` in `program`'s sandbox; throws when the sandbox cannot be prepared or started. The
 * output is masked before it is hashed, stored or queued: the known secrets (`deps.secrets`) and
 * the secret-looking variables the command was given.
 */
export async function runCheckCommand(
  check: CheckEntry,
  deps: FileAccessDependencies & { secrets?: Secrets },
  program: SandboxProgram,
  signal?: AbortSignal,
): Promise<CheckRun> {
  const cwd = ensureScratchFolder(deps);
  const spec = execSandboxSpec(deps, { cwd, writeRoots: false, uid: Deno.uid() });
  spec.allowNetwork = check.network;
  spec.limits = { ...spec.limits, cpuSeconds: Math.ceil(check.timeout_seconds) + 1 };
  const secrets = deps.secrets ?? new Secrets();
  const started = performance.now();
  const result = await runProcess({
    argv: sandboxedArgv(program, spec, checkShellText(check.command)),
    cwd,
    env: childEnvironment(deps.env, secrets.known()),
    timeoutMs: check.timeout_seconds * 1000,
    maxOutputBytes: check.max_output_chars,
    signal,
  });
  const hidden = [...secrets.known(), ...environmentSecrets(deps.env)];
  return {
    ...result,
    stdout: redactText(result.stdout, hidden),
    stderr: redactText(result.stderr, hidden),
    durationMs: Math.round(performance.now() - started),
  };
}
