/**
 * A process-count limit that holds for root. RLIMIT_NPROC (prlimit) counts a user's processes and
 * the kernel does not apply it to root, so a sandboxed command starts through a small shell that,
 * where a pids cgroup can be made (root, on cgroup v1 or v2), creates one with `pids.max`, joins it
 * and then execs the sandbox: every process the command starts is counted from the first. Where no
 * group can be made (a normal user without a delegated cgroup) the shell just execs, and prlimit's
 * limit, which does hold for non-root users, stays the limit. The shell first removes the empty
 * groups earlier commands left (rmdir removes only a group without processes). It is a shell, not
 * Deno, because Deno treats /sys like /proc and asks for --allow-all there.
 */

/** The script: $1 is the limit, the rest is the command. */
const script = [
  'max="$1"; shift',
  "for base in /sys/fs/cgroup/pids /sys/fs/cgroup; do",
  '  [ -w "$base" ] || continue',
  '  if [ "$base" = /sys/fs/cgroup ]; then',
  '    grep -qw pids "$base/cgroup.subtree_control" 2>/dev/null || continue',
  "  fi",
  '  for old in "$base"/radar-pids-*; do rmdir "$old" 2>/dev/null; done',
  '  group="$base/radar-pids-$$"',
  '  if mkdir "$group" 2>/dev/null; then',
  '    if echo "$max" > "$group/pids.max" && echo $$ > "$group/cgroup.procs"; then break; fi',
  '    rmdir "$group" 2>/dev/null',
  "  fi",
  "done",
  'exec "$@"',
].join("\n");

/** `argv` started inside a pids group of at most `max` tasks where one can be made (Linux). */
export function withPidsLimit(argv: readonly string[], max: number): string[] {
  if (Deno.build.os !== "linux" || !(max > 0)) return [...argv];
  return ["/bin/sh", "-c", script, "radar-pids", String(Math.floor(max)), ...argv];
}
