/** Process liveness, for lock files and abandoned runs. */

/**
 * True when a process with this PID exists. SIGCONT is harmless to a running process and fails
 * with ESRCH when there is none; EPERM (someone else's process) and a missing --allow-run count
 * as alive, which errs on the side of not taking over a lock. (/proc is not readable without
 * --allow-all, and Deno.kill accepts no signal 0.)
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === Deno.pid) return true;
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound) && !/ESRCH/.test((error as Error).message);
  }
}
