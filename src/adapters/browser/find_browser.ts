/**
 * Which Chromium-family browser Radar drives: `browser.executable` when set, else the first one
 * found in the usual places (macOS application folders; Linux PATH names and install folders).
 */
import { join } from "node:path";
import type { BrowserAvailability } from "../../core/browser.ts";

/** macOS applications, in order of preference (the program inside each bundle). */
const macApplications = [
  ["Google Chrome", "Google Chrome.app/Contents/MacOS/Google Chrome"],
  ["Chromium", "Chromium.app/Contents/MacOS/Chromium"],
  ["Microsoft Edge", "Microsoft Edge.app/Contents/MacOS/Microsoft Edge"],
  ["Brave", "Brave Browser.app/Contents/MacOS/Brave Browser"],
] as const;

/** Linux program names looked up on PATH, in order of preference. */
const linuxNames = [
  ["Chromium", "chromium"],
  ["Chromium", "chromium-browser"],
  ["Google Chrome", "google-chrome"],
  ["Google Chrome", "google-chrome-stable"],
  ["Microsoft Edge", "microsoft-edge"],
  ["Microsoft Edge", "microsoft-edge-stable"],
  ["Brave", "brave-browser"],
] as const;

/** Linux install folders outside PATH. */
const linuxPaths = [
  ["Google Chrome", "/opt/google/chrome/chrome"],
  ["Microsoft Edge", "/opt/microsoft/msedge/msedge"],
  ["Brave", "/opt/brave.com/brave/brave"],
  ["Chromium", "/snap/bin/chromium"],
] as const;

/** Where to look. */
export interface BrowserSearch {
  /** `browser.executable` (empty: search). */
  configured: string;
  os: typeof Deno.build.os;
  env: Record<string, string | undefined>;
  /** Whether a path is an executable file (injectable for tests). */
  isExecutable?(path: string): boolean;
}

/** The browser to drive, or why there is none. */
export function findBrowser(search: BrowserSearch): BrowserAvailability {
  const executable = search.isExecutable ?? isExecutableFile;
  const home = search.env.HOME ?? "";
  if (search.configured) {
    const path = search.configured.replace(/^~(?=\/|$)/, home);
    return executable(path)
      ? { executable: path, name: nameOf(path), source: "config" }
      : { problem: `browser.executable ${search.configured} is not an executable file` };
  }
  const candidates: (readonly [string, string])[] = [];
  if (search.os === "darwin") {
    for (const folder of ["/Applications", join(home, "Applications")]) {
      for (const [name, bundle] of macApplications) candidates.push([name, join(folder, bundle)]);
    }
  } else if (search.os === "linux") {
    const folders = (search.env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":").filter(Boolean);
    for (const [name, program] of linuxNames) {
      for (const folder of folders) candidates.push([name, join(folder, program)]);
    }
    candidates.push(...linuxPaths);
  } else {
    return { problem: `no browser search on ${search.os}; set browser.executable` };
  }
  const found = candidates.find(([, path]) => executable(path));
  if (found) return { executable: found[1], name: found[0], source: "found" };
  const looked = search.os === "darwin"
    ? "Google Chrome, Chromium, Microsoft Edge or Brave in /Applications"
    : "chromium, chromium-browser, google-chrome, microsoft-edge or brave-browser on PATH";
  return { problem: `no browser found (looked for ${looked}); set browser.executable` };
}

/** A readable name for a configured program path. */
function nameOf(path: string): string {
  const known = [...macApplications, ...linuxNames, ...linuxPaths].find(([, candidate]) =>
    path.endsWith(candidate.split("/").pop()!)
  );
  return known?.[0] ?? path.split("/").pop()!;
}

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}
