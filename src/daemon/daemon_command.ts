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
  return { program: execPath, args: ["run", ...daemonPermissionFlags, main, ...args] };
}

/** `radar <args>` for this very process (its executable and main module). */
export function currentRadarCommand(args: string[]): { program: string; args: string[] } {
  return radarCommand(Deno.execPath(), Deno.mainModule, args);
}
