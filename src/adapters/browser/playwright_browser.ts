/**
 * The `WebBrowser` port on playwright-core and the Chromium-family browser the user has. Each
 * session starts its own browser process (a fresh temporary profile unless `browser.profile`
 * names one) behind its own guarded proxy, and `close()` kills both; a browser that does not
 * close in time is killed with its whole process group. Chromium also exits by itself when Radar
 * dies: it talks to Playwright over a pipe and stops when the pipe closes.
 */
import type { BrowserContext, BrowserContextOptions } from "playwright-core";
import {
  type BrowserAvailability,
  type BrowserSession,
  emptySessionNotes,
  type SessionLimits,
  type WebBrowser,
} from "../../core/browser.ts";
import type { UrlCheck } from "../network/network_guard.ts";
import { startGuardedProxy } from "../network/guarded_proxy.ts";
import { isPrivateAddress } from "../network/address_policy.ts";
import { launchOptions } from "./chromium_launch.ts";
import { ChromiumSession } from "./chromium_session.ts";
import { withDeadline } from "./deadline.ts";
import { sleep } from "../clock.ts";
import { loadPlaywright } from "./playwright_loader.ts";
import { TypedDataFence } from "./typed_data_fence.ts";

/** What the browser adapter is built from. */
export interface PlaywrightBrowserOptions {
  /** Which browser (found once at start, or `browser.executable`). */
  availability: () => BrowserAvailability;
  /** The guard every connection passes (the proxy asks it). */
  check(url: URL): Promise<UrlCheck>;
  /** A persistent profile folder (`browser.profile`), else a fresh temporary one per session. */
  profileDir?: string;
  env: Record<string, string | undefined>;
  /** Addresses of the user's own network (default: private, loopback, link-local ones). */
  usersNetwork?: (address: string) => boolean;
}

const viewport = { width: 1280, height: 800 };
const closeGraceMs = 5000;

/** The browser adapter. */
export class PlaywrightBrowser implements WebBrowser {
  constructor(private readonly options: PlaywrightBrowserOptions) {}

  availability(): BrowserAvailability {
    return this.options.availability();
  }

  async start(limits: SessionLimits, signal: AbortSignal): Promise<BrowserSession> {
    const found = this.availability();
    if (found.problem !== undefined) throw new Error(found.problem);
    const { chromium } = await loadPlaywright();
    const notes = emptySessionNotes();
    const fence = new TypedDataFence();
    // A page or request from an address on the user's network makes what the session shows theirs.
    let privateReached = false;
    const checked = async (url: URL): Promise<UrlCheck> => {
      const check = await this.options.check(url);
      const usersNetwork = this.options.usersNetwork ?? isPrivateAddress;
      if (check.problem === undefined && check.addresses.some(usersNetwork)) {
        privateReached = true;
      }
      return check;
    };
    const proxy = startGuardedProxy({
      // The fence first: a destination outside it is not even resolved.
      check: (url) =>
        fence.allowsConnection(url) ? checked(url) : Promise.resolve({
          problem: `data typed into a page may go only to ${fence.origins.join(", ") || "nowhere"}`,
        }),
      refused: (target, problem) => {
        if (notes.refused.length < 20) notes.refused.push(`${target}: ${problem}`);
      },
    });
    // Connections opened before the typing (a WebSocket, a kept-alive tunnel) end with it.
    fence.onChange(() => proxy.closeExcept((url) => fence.allowsConnection(url)));
    // `--radar-browser=<Radar's pid>-<session>`: whose browser a process is, for tests and people.
    const marker = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const launch = launchOptions(found.executable, proxy, limits.callMs, marker, this.options.env);
    const contextOptions: BrowserContextOptions = {
      acceptDownloads: false,
      serviceWorkers: "block",
      viewport,
      javaScriptEnabled: true,
    };
    let context: BrowserContext | undefined;
    let closeBrowser: () => Promise<void> = () => Promise.resolve();
    const starting = (async () => {
      if (this.options.profileDir) {
        await Deno.mkdir(this.options.profileDir, { recursive: true, mode: 0o700 });
        context = await chromium.launchPersistentContext(this.options.profileDir, {
          ...launch,
          ...contextOptions,
        });
        const persistent = context;
        closeBrowser = () => persistent.close();
      } else {
        const browser = await chromium.launch(launch);
        closeBrowser = () => browser.close();
        const version = browser.version().split(".")[0];
        context = await browser.newContext({
          ...contextOptions,
          userAgent: desktopUserAgent(version),
        });
      }
    })();
    try {
      await withDeadline(starting, limits.callMs + 5000, signal, "starting the browser");
      const page = context!.pages()[0] ?? await context!.newPage();
      const shutdown = async () => {
        // A second close() kills the process group when the first hangs (a stuck renderer).
        const closing = closeBrowser().catch(() => {});
        const closed = await Promise.race([closing.then(() => true), sleep(closeGraceMs)]);
        if (!closed) await Promise.race([closeBrowser().catch(() => {}), sleep(closeGraceMs)]);
        proxy.close();
      };
      return await ChromiumSession.attach({
        context: context!,
        page,
        limits,
        notes,
        fence,
        reachedPrivate: () => privateReached,
        shutdown,
      });
    } catch (error) {
      starting.then(() => closeBrowser(), () => {}).catch(() => {});
      await Promise.race([closeBrowser().catch(() => {}), sleep(closeGraceMs)]);
      proxy.close();
      throw error;
    }
  }
}

/** The user agent of desktop Chrome of that version (not "HeadlessChrome", which sites refuse). */
function desktopUserAgent(major: string): string {
  const platform = Deno.build.os === "darwin"
    ? "Macintosh; Intel Mac OS X 10_15_7"
    : "X11; Linux x86_64";
  return `Mozilla/5.0 (${platform}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
