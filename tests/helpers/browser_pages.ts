/**
 * Local web pages for the browser tests: a server on 127.0.0.1 (or another loopback address)
 * that records every request it gets, and the `browser` tool over real Chromium with the test
 * servers' address allowed through `browser.allowed_hosts` (the guard stays on for the rest).
 */
import { defaultConfig, type RadarConfig } from "../../src/config/schema.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import type { Resolver } from "../../src/adapters/network/network_guard.ts";
import { denoResolver } from "../../src/adapters/network/network_guard.ts";
import type { Tool } from "../../src/core/tool.ts";
import { browserParts } from "../../src/runtime/browser_parts.ts";
import { browserTool } from "../../src/tools/browser.ts";
import type { BrowserSessions } from "../../src/tools/browser_sessions.ts";
import type { ChatModel } from "../../src/core/chat_model.ts";

/** Debian's Chromium (.ci/run installs it). */
export const chromiumPath = "/usr/bin/chromium";

/** A request a test server received. */
export interface SeenRequest {
  method: string;
  path: string;
  body: string;
}

/** A test server and what it saw. */
export interface PageServer {
  origin: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Serves `pages` (path → handler or HTML) on `hostname`, recording every request. */
export function servePages(
  pages: Record<string, string | ((request: Request, body: string) => Response)>,
  hostname = "127.0.0.1",
): PageServer {
  const seen: SeenRequest[] = [];
  const server = Deno.serve({ hostname, port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const body = request.body ? await request.text() : "";
    seen.push({ method: request.method, path: url.pathname + url.search, body });
    const page = pages[url.pathname];
    if (page === undefined) return new Response("not here", { status: 404 });
    if (typeof page === "function") return page(request, body);
    return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const port = server.addr.port;
  return {
    origin: `http://${hostname}:${port}`,
    port,
    seen,
    close: () => server.shutdown(),
  };
}

/** A config with Chromium and the tests' loopback server allowed (nothing else private). */
export function browserConfig(edit: (config: RadarConfig) => void = () => {}): RadarConfig {
  const config = defaultConfig();
  config.browser.executable = chromiumPath;
  config.browser.allowed_hosts = ["127.0.0.1"];
  config.browser.call_seconds = 15;
  edit(config);
  return config;
}

/** The browser tool and its sessions over real Chromium. */
export interface BrowserUnderTest {
  tool: Tool;
  sessions: BrowserSessions;
  close(): Promise<void>;
}

/** Builds the browser tool as the runtime does, from `config`. */
export function browserUnderTest(
  config: RadarConfig,
  options: { resolve?: Resolver; visionModel?: ChatModel; dataDir?: string } = {},
): BrowserUnderTest {
  const parts = browserParts({
    config,
    dataDir: options.dataDir ?? "/nonexistent",
    env: Deno.env.toObject(),
    resolve: options.resolve ?? denoResolver,
    clock: new ManualClock(new Date("2026-11-23T09:00:00Z")),
  });
  if (!parts.sessions) throw new Error(`no browser: ${parts.availability().problem}`);
  const tool = browserTool({
    sessions: parts.sessions,
    check: parts.check,
    callMs: () => config.browser.call_seconds * 1000,
    visionModel: options.visionModel,
    visionModelName: options.visionModel ? "vision-test" : undefined,
  });
  return { tool, sessions: parts.sessions, close: () => parts.sessions!.closeAll() };
}

/** Every process's pid and command line (through `ps`: /proc cannot be listed without -A). */
function processTable(): { pid: number; args: string }[] {
  const output = new Deno.Command("ps", { args: ["-eo", "pid=,args="], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    return match ? [{ pid: Number(match[1]), args: match[2] }] : [];
  });
}

/**
 * PIDs of running browser processes the Radar of process `owner` started (they carry
 * `--radar-browser=<owner>-…`; other test runs on the machine have other owners).
 */
export function radarBrowserProcesses(owner = Deno.pid): number[] {
  return processTable().filter((entry) => entry.args.includes(`--radar-browser=${owner}-`))
    .map((entry) => entry.pid);
}

/** Waits until no browser of `owner` runs (up to `ms`); returns those left. */
export async function browserProcessesAfter(ms: number, owner = Deno.pid): Promise<number[]> {
  const until = Date.now() + ms;
  let left = radarBrowserProcesses(owner);
  while (left.length && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = radarBrowserProcesses(owner);
  }
  return left;
}

/** The profile folders (`--user-data-dir`) of `owner`'s browsers: their helpers carry them too. */
export function browserProfiles(owner = Deno.pid): string[] {
  return processTable().filter((entry) => entry.args.includes(`--radar-browser=${owner}-`))
    .flatMap((entry) => /--user-data-dir=(\S+)/.exec(entry.args)?.[1] ?? []);
}

/** PIDs of processes (helpers included) using one of `profiles`. */
export function processesUsing(profiles: string[]): number[] {
  if (!profiles.length) return [];
  return processTable().filter((entry) => profiles.some((profile) => entry.args.includes(profile)))
    .map((entry) => entry.pid);
}
