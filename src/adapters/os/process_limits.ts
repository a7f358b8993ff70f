/**
 * OS resource limits for the subprocesses Radar starts (plugin hosts, PDF extraction): where
 * `prlimit` is and how a command line gets an RLIMIT_DATA ceiling. RLIMIT_AS is useless for
 * V8-based runtimes: the caged heap reserves > 32 GB of address space.
 */
import { isFile } from "../../config/quiet_stat.ts";

/** Finds `prlimit` on Linux (for the OS memory ceiling); undefined elsewhere. */
export function findPrlimit(): string | undefined {
  if (Deno.build.os !== "linux") return undefined;
  return ["/usr/bin/prlimit", "/bin/prlimit"].find((path) => isFile(path));
}

/** `command args` run under `prlimit --data=MB` when `prlimitPath` is set, else unchanged. */
export function withDataLimit(
  run: { command: string; args: string[] },
  prlimitPath: string | undefined,
  dataLimitMb: number,
): { command: string; args: string[] } {
  if (!prlimitPath) return run;
  const bytes = dataLimitMb * 1024 * 1024;
  return {
    command: prlimitPath,
    args: [`--data=${bytes}:${bytes}`, "--", run.command, ...run.args],
  };
}
