/** The `browser:` lines of `radar status`: which browser the model can drive, or why none. */
import type { Radar } from "../../runtime/open_radar.ts";
import { runsAsRoot } from "../../adapters/browser/chromium_launch.ts";

/** One line, plus how it is fenced in when there is a browser. */
export async function browserStatusLines(radar: Radar): Promise<string[]> {
  const { browser } = await radar.agentStack();
  const found = browser.availability();
  if (found.problem !== undefined) return [`browser:   none — ${found.problem}`];
  const settings = radar.config.browser;
  const how = found.source === "config" ? "browser.executable" : "found";
  const profile = settings.profile
    ? `profile ${settings.profile} (kept)`
    : "a fresh temporary profile per session";
  const reach = settings.allow_private
    ? "private addresses allowed (browser.allow_private)"
    : settings.allowed_hosts.length
    ? `public addresses plus ${settings.allowed_hosts.join(", ")}`
    : "public addresses only";
  const open = browser.openSessions();
  return [
    `browser:   ${found.name} (${found.executable}, ${how}); ${profile}`,
    `  network: through Radar's guard, ${reach}; submits need a yes`,
    `  Chromium sandbox: ${
      runsAsRoot() ? "off (Radar runs as root, where Chromium cannot use it)" : "on"
    }${open ? `; ${open} session(s) open` : ""}`,
  ];
}
