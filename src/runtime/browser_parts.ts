/**
 * The browser, assembled: which program (`browser.executable` or found), the guard every page's
 * connection passes (`browser.allow_private`, `browser.allowed_hosts`), the profile, and the
 * sessions the `browser` tool drives. The browser adapter (and Playwright with it) loads on the
 * first browser call: a run that never browses does not read its modules.
 */
import { isAbsolute, join } from "node:path";
import type { RadarConfig } from "../config/schema.ts";
import { expandHome } from "../config/paths.ts";
import type {
  BrowserAvailability,
  BrowserSession,
  SessionLimits,
  WebBrowser,
} from "../core/browser.ts";
import type { Clock } from "../core/ports.ts";
import { findBrowser } from "../adapters/browser/find_browser.ts";
import type { PlaywrightBrowserOptions } from "../adapters/browser/playwright_browser.ts";
import { checkUrlWithAllowance, hostAllowance } from "../adapters/network/host_allowance.ts";
import type { Resolver, UrlCheck } from "../adapters/network/network_guard.ts";
import { BrowserSessions } from "../tools/browser_sessions.ts";
import { onFirstUse } from "./first_use.ts";

/** At most this many browser processes at once (each is a few hundred MB). */
const maxSessions = 2;

/** What `browserParts` builds. */
export interface BrowserParts {
  /** Which browser, or why none (`radar status`). */
  availability(): BrowserAvailability;
  /** The sessions (absent: the browser is off or none was found; no tool). */
  sessions?: BrowserSessions;
  /** The guard for pages (the tool checks the URL it is asked to open with it too). */
  check(url: URL): Promise<UrlCheck>;
}

/** Builds the browser parts from config. */
export function browserParts(input: {
  config: RadarConfig;
  dataDir: string;
  env: Record<string, string | undefined>;
  resolve: Resolver;
  clock: Clock;
  /** See `RadarOptions.usersNetwork`. */
  usersNetwork?: (address: string) => boolean;
}): BrowserParts {
  const { config, env } = input;
  const settings = config.browser;
  let found: BrowserAvailability | undefined;
  const availability = (): BrowserAvailability =>
    settings.enabled
      ? found ??= findBrowser({ configured: settings.executable, os: Deno.build.os, env })
      : { problem: "off (browser.enabled: false)" };
  const allowed = hostAllowance(settings.allowed_hosts);
  const check = (url: URL) =>
    checkUrlWithAllowance(url, {
      allowPrivate: settings.allow_private,
      allowed,
      resolve: input.resolve,
      allowHint: "browser.allowed_hosts or browser.allow_private",
    });
  if (availability().problem !== undefined) return { availability, check };
  const browser = browserOnFirstStart({
    availability,
    check,
    profileDir: profileFolder(settings.profile, input.dataDir, env),
    env,
    usersNetwork: input.usersNetwork,
  });
  const sessions = new BrowserSessions(browser, () => ({
    limits: { callMs: settings.call_seconds * 1000, maxChars: settings.max_chars },
    sessionMs: settings.session_seconds * 1000,
    idleMs: settings.idle_seconds * 1000,
    maxSessions,
  }), input.clock);
  return { availability, sessions, check };
}

/**
 * The Playwright adapter, loaded at run time (`import(new URL(…))`, so Deno does not read it while
 * it starts) and built on the first session started.
 */
function browserOnFirstStart(options: PlaywrightBrowserOptions): WebBrowser {
  const adapter = onFirstUse(async (): Promise<WebBrowser> =>
    new (await playwrightBrowserModule()).PlaywrightBrowser(options)
  );
  return {
    availability: options.availability,
    async start(limits: SessionLimits, signal: AbortSignal): Promise<BrowserSession> {
      return (await adapter()).start(limits, signal);
    },
  };
}

/** `browser.profile`: a name is a folder under `<data>/browser-profiles/`; a path is used as is. */
export function profileFolder(
  profile: string,
  dataDir: string,
  env: Record<string, string | undefined>,
): string | undefined {
  if (!profile) return undefined;
  const expanded = expandHome(profile, env);
  if (isAbsolute(expanded)) return expanded;
  return join(dataDir, "browser-profiles", profile.replace(/[^\w-]/g, "_"));
}

/** The Playwright browser's module, loaded by the first session started. */
function playwrightBrowserModule(): Promise<
  typeof import("../adapters/browser/playwright_browser.ts")
> {
  return import(new URL("../adapters/browser/playwright_browser.ts", import.meta.url).href);
}
