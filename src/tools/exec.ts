/** `exec`: run a shell command, checked by the classifier, optionally inside the sandbox. */
import { existsSync } from "node:fs";
import { z } from "zod";
import { homeDirectory } from "../config/paths.ts";
import { redactText } from "../core/redact.ts";
import { failed, refused, timedOut, type Tool, type ToolContext } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { analyzeCommand } from "./exec/command_classifier.ts";
import { decideExec } from "./exec/exec_policy.ts";
import { runProcess } from "./exec/run_process.ts";
import { detectSandbox, sandboxedArgv, type SandboxProgram } from "./exec/sandbox.ts";
import { type FileToolDependencies, pathGuardFor } from "./file_access.ts";
import { homeSecretPaths, systemSecretPaths } from "./path_rules.ts";
import { configSecrets } from "../config/secrets.ts";

/** The sandbox exec would use with this config, or why there is none. */
export function execSandbox(
  deps: Pick<FileToolDependencies, "config" | "env">,
): { program?: SandboxProgram; problem?: string } {
  if (!deps.config.tools.exec.sandbox) return {};
  const program = detectSandbox(Deno.build.os, deps.env.PATH, existsSync);
  if (program) return { program };
  const hint = Deno.build.os === "linux"
    ? "install bubblewrap (apt-get install bubblewrap)"
    : "no sandbox program exists for this system";
  return {
    problem:
      `tools.exec.sandbox is on but no sandbox was found: ${hint}, or set tools.exec.sandbox: false`,
  };
}

/** Creates the exec tool. */
export function execTool(deps: FileToolDependencies): Tool {
  const settings = deps.config.tools.exec;
  return defineTool({
    name: "exec",
    description: "Run a shell command; returns exit code, stdout, stderr",
    keywords: ["run", "command", "shell", "terminal", "exec", "execute", "script", "bash"],
    input: z.object({
      command: z.string().min(1).max(10_000),
      cwd: z.string().optional().describe("Working folder"),
    }),
    run: async ({ command, cwd }, context) => {
      const guard = pathGuardFor(deps);
      const home = homeDirectory(deps.env);
      const folder = guard.check(cwd ?? deps.cwd ?? Deno.cwd(), "read");
      if (!folder.ok) return refused(folder.reason);
      const analysis = analyzeCommand(command, {
        home,
        cwd: folder.path,
        protectedPids: [Deno.pid, Deno.ppid],
        checkPath(path, access) {
          const verdict = guard.check(path, access);
          return verdict.ok ? undefined : verdict.reason;
        },
      });
      const decision = decideExec(analysis, {
        mode: settings.mode,
        confirmDestructive: settings.confirm_destructive,
      }, command);
      if (decision.action === "refuse") {
        return refused(
          `Refused (tools.exec.mode ${settings.mode}): ${decision.reason}.${
            settings.mode === "block_dangerous" && !settings.confirm_destructive &&
              analysis.findings.every((finding) => finding.severity === "destructive")
              ? " Set tools.exec.confirm_destructive: true to be asked in `radar chat` or the dashboard chat."
              : ""
          }`,
        );
      }
      if (decision.action === "confirm") {
        const answer = await confirm(command, decision.reason, context);
        if (answer !== true) return refused(answer);
      }
      const sandbox = execSandbox(deps);
      if (sandbox.problem) return refused(sandbox.problem);
      const argv = sandboxedArgv(sandbox.program, {
        writableRoots: settings.writable_roots
          .map((root) => guard.check(root, "write"))
          .flatMap((verdict) => verdict.ok ? [verdict.path] : []),
        allowNetwork: settings.allow_network,
        hiddenFolders: existing([
          deps.dataDir,
          ...homeSecretPaths.map((path) => `${home}/${path}`),
          ...systemSecretPaths,
        ], "folder"),
        hiddenFiles: existing([
          ...homeSecretPaths.map((path) => `${home}/${path}`),
          ...(deps.configPath ? [deps.configPath] : []),
          ...systemSecretPaths,
        ], "file"),
        cwd: folder.path,
        visibleFolders: [home, folder.path],
      }, command);
      let result;
      try {
        result = await runProcess({
          argv,
          cwd: folder.path,
          env: childEnvironment(deps.env, configSecrets(deps.config)),
          timeoutMs: settings.timeout_seconds * 1000,
          maxOutputBytes: settings.max_output_chars,
          signal: context.signal,
        });
      } catch (error) {
        return failed(`Cannot run the command: ${(error as Error).message.split("\n")[0]}`);
      }
      const text = redactText(formatResult(result), [
        ...configSecrets(deps.config),
        ...environmentSecrets(deps.env),
      ]);
      if (result.timedOut) {
        return timedOut(
          `Timed out after ${settings.timeout_seconds} s; the command and its children were killed (tools.exec.timeout_seconds).\n${text}`,
        );
      }
      if (result.aborted) return failed(`Cancelled; the command was killed.\n${text}`);
      return text;
    },
  });
}

async function confirm(
  command: string,
  reason: string,
  context: ToolContext,
): Promise<true | string> {
  if (context.interactive && context.confirm) {
    const yes = await context.confirm(
      `Radar wants to run a destructive command:\n  ${command}\n  (${reason})\nRun it?`,
    );
    return yes
      ? true
      : "The user declined to run this command. Do not retry it; ask what to do instead.";
  }
  return `Refused: ${reason}. Nobody can confirm it in a ${context.kind} run. To allow it, run it in \`radar chat\` or the dashboard chat (you will be asked), or set tools.exec.confirm_destructive: false.`;
}

function existing(paths: string[], kind: "folder" | "file"): string[] {
  return [...new Set(paths)].filter((path) => {
    try {
      const info = Deno.statSync(path);
      return kind === "folder" ? info.isDirectory : info.isFile;
    } catch {
      return false;
    }
  });
}

/**
 * Values of secret-looking environment variables (…_TOKEN, …_API_KEY, AWS_SECRET_ACCESS_KEY …):
 * the command may use them, but `env` or `echo $X` must not hand them to the model.
 */
export function environmentSecrets(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value && value.length >= 8 &&
      /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|AUTH)/i.test(name)
      ? [value]
      : []
  );
}

/** The child's environment: Radar's own variables and any secret values removed. */
export function childEnvironment(
  env: Record<string, string | undefined>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name.startsWith("RADAR_")) continue;
    if (secrets.some((secret) => value.includes(secret))) continue;
    out[name] = value;
  }
  out.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return out;
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
