/** The `radar status` security section: exec sandbox, writable roots, network, unattended runs. */
import type { Radar } from "../../runtime/open_radar.ts";
import { checkedRoots, pathGuardFor, scratchFolder } from "../../adapters/os/file_access.ts";
import { execSandbox, execUserRoots } from "../../adapters/os/sandbox_spec.ts";

/** Status section "security" in plain words; last, a warning when Radar runs as root. */
export function execStatusLines(
  radar: Pick<Radar, "config" | "dataDir"> & { loaded?: { path?: string } },
  env: Record<string, string | undefined>,
  uid: number | null = Deno.uid(),
): string[] {
  const lines = sandboxLines(radar, env, uid);
  if (uid === 0) {
    lines.push(
      "  WARNING:     Radar runs as root: every file on this machine is one mistake away " +
        "(a wrong path rule, a plugin's grant, an MCP server's folder); run it as your own user",
    );
  }
  return lines;
}

function sandboxLines(
  radar: Pick<Radar, "config" | "dataDir"> & { loaded?: { path?: string } },
  env: Record<string, string | undefined>,
  uid: number | null,
): string[] {
  const deps = {
    config: radar.config,
    dataDir: radar.dataDir,
    configPath: radar.loaded?.path,
    env,
  };
  const exec = radar.config.tools.exec;
  const guard = pathGuardFor(deps);
  const shown = (paths: string[]) => paths.map((path) => guard.display(path)).join(", ");
  const scratch = guard.display(scratchFolder(deps));
  const fileRoots = checkedRoots(guard, radar.config.tools.files.writable_roots);
  const lines = ["security:"];
  const files = `write_file:  ${scratch}${
    fileRoots.length ? `, ${shown(fileRoots)}` : ""
  } without asking; elsewhere a yes in chat, never unattended`;
  if (!exec.enabled) {
    return [...lines, "  exec:        disabled (tools.exec.enabled: false)", `  ${files}`];
  }
  const { program, problem } = execSandbox(deps);
  if (!program) {
    return [
      ...lines,
      `  exec:        sandbox NONE (${problem}): every command needs a yes in chat`,
      "  unattended:  heartbeats, tasks and `radar ask` never run exec",
      `  ${files}`,
    ];
  }
  const roots = execUserRoots(deps);
  const limits = program.kind === "bubblewrap"
    ? `own PID namespace; ${
      program.prlimit
        ? `max ${exec.max_processes} processes${
          uid === 0 ? " (a pids cgroup: RLIMIT_NPROC does not hold for root)" : ""
        }, ${exec.max_memory_mb || "unlimited"} MB`
        : "no resource limits (prlimit not found)"
    }`
    : "process group";
  const rootsLine = roots.length
    ? `${scratch}; ${shown(roots)} ${
      exec.mode === "allow_all" ? "always (mode allow_all)" : "after a yes in chat"
    }`
    : scratch;
  return [
    ...lines,
    `  exec:        sandbox ${program.kind} (${program.path}; ${limits}); mode ${exec.mode}`,
    `  writable:    ${rootsLine}`,
    `  network:     ${exec.allow_network ? "on" : "off"} inside the sandbox`,
    `  unattended:  exec in the sandbox, writing ${
      exec.mode === "allow_all" && roots.length ? `${scratch}, ${shown(roots)}` : `only ${scratch}`
    }; secrets and Radar's folders hidden`,
    `  ${files}`,
  ];
}
