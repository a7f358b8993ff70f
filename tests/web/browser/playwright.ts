/**
 * Loading playwright-core under the test task's flags, and whether Debian's Chromium is there
 * (same approach as browser_test.ts). playwright-core probes /proc/sys/fs/binfmt_misc/WSLInterop
 * with fs.existsSync at import; Deno grants /proc/sys paths only with --allow-all and throws
 * instead of answering false, so that one path answers "no".
 */
import fs from "node:fs";
import { chromiumPath } from "./dashboard_scenario.ts";

const wslProbe = "/proc/sys/fs/binfmt_misc/WSLInterop";

/** The flags every browser test launches Chromium with. */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];

/** True when /usr/bin/chromium exists (the browser tests are skipped otherwise). */
export function chromiumInstalled(): boolean {
  try {
    return Deno.statSync(chromiumPath).isFile;
  } catch {
    return false;
  }
}

/** Imports playwright-core with the WSL probe answered. */
export async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  const existsSync = fs.existsSync;
  fs.existsSync =
    ((path: fs.PathLike) => path === wslProbe ? false : existsSync(path)) as typeof fs.existsSync;
  return await import("playwright-core");
}
