/**
 * How Radar starts Chromium: headless, its network only through the guarded proxy (and no name
 * resolution of its own), Chromium's own popup blocker kept, no crash reporter, and Chromium's
 * sandbox on unless Radar runs as root (Chromium refuses to start sandboxed as root).
 */
import type { LaunchOptions } from "playwright-core";
import type { LocalProxy } from "../network/connect_proxy.ts";

/** Flags on top of Playwright's own (which already turn off sync, extensions, updates…). */
export function chromiumFlags(marker: string): string[] {
  return [
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--deny-permission-prompts",
    // Nothing resolves names inside Chromium: every destination name goes to the proxy, which
    // resolves and checks it (a page's DNS prefetch cannot leak names either).
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    // WebRTC only through the proxy (which takes CONNECT alone), never UDP of its own.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
    "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate",
    // Found by the tests and by `radar status` among the processes (Chromium ignores it).
    `--radar-browser=${marker}`,
  ];
}

/** Whether this process runs as root (Chromium's sandbox cannot start then). */
export function runsAsRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

/** Playwright's launch options for one session. */
export function launchOptions(
  executable: string,
  proxy: LocalProxy,
  timeoutMs: number,
  marker: string,
  env: Record<string, string | undefined>,
): LaunchOptions {
  return {
    executablePath: executable,
    headless: true,
    chromiumSandbox: !runsAsRoot(),
    // Radar's own shutdown closes the browser; Playwright must not exit the process on a signal.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: timeoutMs,
    // Playwright turns Chromium's popup blocker off by default; Radar keeps it on.
    ignoreDefaultArgs: ["--disable-popup-blocking"],
    proxy: { server: proxy.url, username: proxy.username, password: proxy.password },
    args: chromiumFlags(marker),
    env: browserEnvironment(env),
  };
}

/** What Chromium inherits: where programs and the home folder are, language, time zone; no secrets. */
export function browserEnvironment(
  env: Record<string, string | undefined>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "XDG_RUNTIME_DIR"]) {
    const value = env[name];
    if (value) kept[name] = value;
  }
  kept.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return kept;
}
