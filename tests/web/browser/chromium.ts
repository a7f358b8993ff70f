/**
 * Debian's Chromium driven by playwright-core, shared by the browser tests.
 *
 * playwright-core asks at import whether it runs under WSL by probing
 * /proc/sys/fs/binfmt_misc/WSLInterop with fs.existsSync; Deno grants /proc/sys paths only with
 * --allow-all and throws instead of answering false. Answering "no" for that one path lets the
 * browser run under the test task's own flags instead of a separate `deno run -A` process.
 */
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";

/** Debian's Chromium (`deno task verify` installs it; scripts/system_parts.ts). */
export const chromiumPath = "/usr/bin/chromium";

const wslProbe = "/proc/sys/fs/binfmt_misc/WSLInterop";

/** Imports playwright-core with the WSL probe answered. */
export async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  const existsSync = fs.existsSync;
  fs.existsSync =
    ((path: fs.PathLike) => path === wslProbe ? false : existsSync(path)) as typeof fs.existsSync;
  return await import("playwright-core");
}

/** Launches headless Chromium with the flags every browser test uses. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await loadPlaywright();
  return await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Collects console errors, CSP reports and uncaught page errors of `page`. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content.Security.Policy/i.test(message.text())) {
      errors.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

const screenshots = new URL("../../output/screenshots/", import.meta.url);

/** Saves a full-page screenshot as tests/output/screenshots/NAME.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  Deno.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname, fullPage: true });
}
