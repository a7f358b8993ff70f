/** Process liveness, for lock files and abandoned runs. */

/** True when a process with this PID exists (EPERM counts as alive: it is someone else's). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === Deno.pid) return true;
  if (Deno.build.os === "linux") {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/stat`);
      // A zombie (state Z) has exited; it only waits for its parent to reap it.
      return !/^\d+ \(.*\) Z /.test(status);
    } catch {
      return false;
    }
  }
  try {
    // SIGCONT is harmless to a running process and fails with ESRCH when there is none.
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    return error instanceof Deno.errors.PermissionDenied;
  }
}
