/** How to start Radar again as a separate process (detached daemon, launchd, systemd). */

/** Runtime flags of the daemon under `deno run`: exactly those of `deno task radar` (tested). */
export const daemonPermissionFlags = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
  "--unstable-cron",
  "--unstable-worker-options",
  "--no-prompt",
];

/**
 * V8 flags of the daemon process under the deno CLI (`radar start`, the service files). A young
 * generation capped at 2 MB semi-spaces keeps a busy daemon's committed heap near what it uses:
 * measured over 4,000 heartbeats with notifications, RSS stayed at ~115 MB instead of climbing to
 * ~165 MB as V8 grew its new space (heap in use was ~16 MB either way); idle, 101 MB instead of
 * 107. `--no-code-cache`: the daemon compiles its modules from source once instead of mapping
 * V8's code cache; idle RSS 97–98 MB instead of 101–103, start 60–90 ms slower (measured by
 * `deno task bench "memory levers"`, which also shows the levers not taken). Not taken:
 * `--no-maglev --no-turbofan` (idle −1.5 MB on a first start, nothing measurable restarted; zod
 * ~3×, HTML to text ~1.5×, a watcher's reconcile 1.5–2.5× and RE2's WebAssembly (then), which
 * `redact_response` runs in this process, 3–5× slower; issue 34's notes).
 */
export const daemonV8Flags = ["--no-code-cache", "--v8-flags=--max-semi-space-size=2"];

/**
 * Environment of the daemon process (`radar start`, the service files; the user's own values
 * win). glibc's malloc gives busy threads their own arenas (up to 8 per core) and keeps what they
 * freed: a busy daemon's Deno worker threads grew RSS by ~13 MB within 10 minutes of a soak
 * (121 MB against 108 MB with two arenas; no difference when idle). Ignored on macOS.
 */
export const daemonEnvironment: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/** True when `execPath` is the deno CLI (so Radar runs as `deno run main.ts`, not compiled). */
export function runsUnderDenoCli(execPath: string): boolean {
  return /(^|[\\/])deno(\.exe)?$/.test(execPath);
}

/** The program and arguments that run `radar <args>` in a new process. */
export function radarCommand(
  execPath: string,
  mainModule: string,
  args: string[],
): { program: string; args: string[] } {
  if (!runsUnderDenoCli(execPath)) return { program: execPath, args };
  const main = mainModule.startsWith("file:")
    ? decodeURIComponent(new URL(mainModule).pathname)
    : mainModule;
  const v8 = args[0] === "serve" ? daemonV8Flags : [];
  return { program: execPath, args: ["run", ...daemonPermissionFlags, ...v8, main, ...args] };
}

/** `radar <args>` for this very process (its executable and main module). */
export function currentRadarCommand(args: string[]): { program: string; args: string[] } {
  return radarCommand(Deno.execPath(), Deno.mainModule, args);
}
