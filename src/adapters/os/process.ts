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

/**
 * When the process with this PID started, from `ps -o etime=` (macOS and Linux procps); undefined
 * when there is no such process or `ps` cannot say. Used to tell a daemon from a newer process
 * that reused its PID after a crash or a reboot.
 */
export function processStartTime(pid: number, now: Date = new Date()): Date | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const output = new Deno.Command("ps", {
      args: ["-o", "etime=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    if (!output.success) return undefined;
    const seconds = parseElapsedTime(new TextDecoder().decode(output.stdout).trim());
    return seconds === undefined ? undefined : new Date(now.getTime() - seconds * 1000);
  } catch {
    return undefined;
  }
}

/** Elapsed times beyond this are not real: procps prints a process that started "in the
 * future" (within a clock tick of now) as a wrapped-around count of ~441 million days. */
const maxElapsedDays = 36_500;

/**
 * Parses ps's elapsed time `[[dd-]hh:]mm:ss` into seconds; undefined when malformed or absurd
 * (then the caller knows nothing, which keeps a lock's holder counted as running).
 */
export function parseElapsedTime(text: string): number | undefined {
  const match = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)$/.exec(text);
  if (!match) return undefined;
  const [, days, hours, minutes, seconds] = match;
  if (Number(days ?? 0) > maxElapsedDays) return undefined;
  return ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes)) * 60 +
    Number(seconds);
}
