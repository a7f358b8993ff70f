/** The `radar status` lines about exec: mode and whether the sandbox is active, and which. */
import { existsSync } from "node:fs";
import type { Runtime } from "../../runtime/runtime.ts";
import { execSandbox } from "../../tools/exec.ts";
import { detectSandbox } from "../../tools/exec/sandbox.ts";

/** Status section: exec mode and sandbox. */
export function execStatusLines(
  runtime: Runtime,
  env: Record<string, string | undefined>,
): string[] {
  const exec = runtime.config.tools.exec;
  if (!exec.enabled) return ["exec:      disabled (tools.exec.enabled: false)"];
  const mode = `${exec.mode}${exec.confirm_destructive ? ", confirms destructive commands" : ""}`;
  const { program, problem } = execSandbox({ config: runtime.config, env });
  let sandbox: string;
  if (problem) sandbox = `sandbox NOT available: ${problem}`;
  else if (program) {
    const roots = exec.writable_roots.length ? exec.writable_roots.join(", ") : "none";
    sandbox = `sandbox active (${program.kind} ${program.path}; writable: ${roots}; network ${
      exec.allow_network ? "allowed" : "off"
    })`;
  } else {
    const available = detectSandbox(Deno.build.os, env.PATH, existsSync);
    sandbox = `sandbox off (tools.exec.sandbox: false${
      available ? `; ${available.kind} is available at ${available.path}` : ""
    })`;
  }
  return [`exec:      ${mode}`, `  ${sandbox}`];
}
