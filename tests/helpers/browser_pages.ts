/**
 * Local web pages for the browser tests: a server on 127.0.0.1 (or another loopback address)
 * that records every request it gets, and the `browser` tool over real Chromium with the test
 * servers' address allowed through `browser.allowed_hosts` (the guard stays on for the rest).
 */
import { defaultConfig, type RadarConfig } from "../../src/config/schema.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import type { Resolver } from "../../src/adapters/network/network_guard.ts";
import { denoResolver } from "../../src/adapters/network/network_guard.ts";
import { type Tool, type ToolContext, type ToolResult, toResult } from "../../src/core/tool.ts";
import { needing } from "./system_parts.ts";
import { browserParts } from "../../src/runtime/browser_parts.ts";
import { browserTool } from "../../src/tools/browser.ts";
import type { BrowserSessions } from "../../src/tools/browser_sessions.ts";
import type { ChatModel } from "../../src/core/chat_model.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { AgentResult } from "../../src/core/agent_types.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { type FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";

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

/**
 * The browser tests' stand-in for the user's own network: 127.0.0.2 (a "router"); the other
 * loopback addresses serve the tests' public sites (`RadarOptions.usersNetwork`).
 */
export const testUsersNetwork = (address: string): boolean => address === "127.0.0.2";

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

/** A page server and the browser tool over it, for one test. */
export interface BrowserPages extends BrowserUnderTest {
  server: PageServer;
}

/**
 * Runs `work` with a server of `pages` on 127.0.0.1 and the browser tool over `config` (the
 * tests' default); closes both however it ends.
 */
export async function withBrowserPages(
  pages: Parameters<typeof servePages>[0],
  work: (under: BrowserPages) => Promise<void>,
  options: Parameters<typeof browserUnderTest>[1] & { config?: RadarConfig } = {},
): Promise<void> {
  const server = servePages(pages);
  const browser = browserUnderTest(options.config ?? browserConfig(), options);
  try {
    await work({ ...browser, server });
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * A chat run's tool context (it keeps its browser between calls, as a real run with `atRunEnd`):
 * the person answers with `answers` (no when they run out) and `asked` records the questions.
 */
export function chatRunContext(
  conversationId: number,
  answers: boolean[] = [],
  asked: string[] = [],
): ToolContext {
  return {
    kind: "chat",
    conversationId,
    interactive: true,
    signal: new AbortController().signal,
    confirm: (question) => {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? false);
    },
    atRunEnd: () => {},
  };
}

/** How a browser test acts: `act` calls the tool in the test's chat, `open` opens a path. */
export interface Browsing {
  act(args: Record<string, unknown>): Promise<ToolResult>;
  open(path: string): Promise<ToolResult>;
}

/**
 * A Chromium test (see `needing`) in a chat's browser over `pages`: `work` gets the calls, the
 * server and the tool; `answers` are the person's answers to the tool's questions, `asked` the
 * questions.
 */
export function browserTest(
  name: string,
  pages: Parameters<typeof servePages>[0],
  work: (browsing: Browsing, under: BrowserPages) => Promise<void>,
  options: Parameters<typeof withBrowserPages>[2] & { answers?: boolean[]; asked?: string[] } = {},
): Deno.TestDefinition {
  return needing(["chromium"], { name }, () =>
    withBrowserPages(pages, (under) => {
      const context = chatRunContext(5, options.answers ?? [], options.asked ?? []);
      const act = async (args: Record<string, unknown>) => {
        const parsed = under.tool.parse(args);
        if (!parsed.ok) throw new Error(`bad test arguments: ${parsed.error}`);
        return toResult(await under.tool.run(parsed.value, context));
      };
      const open = (path: string) => act({ action: "open", url: `${under.server.origin}${path}` });
      return work({ act, open }, under);
    }, options));
}

/**
 * One unattended run (like `radar ask` from a script) that renews library loans on `site`: open
 * /renew, fill card and PIN, click "Renew all" — what the browser approval tests hold and replay.
 */
export async function renewUnattended(
  radar: Radar,
  llm: FakeLlmServer,
  site: PageServer,
): Promise<AgentResult> {
  llm.reply(
    ollamaToolCall("browser", { action: "open", url: `${site.origin}/renew` }),
    ollamaToolCall("browser", { action: "fill", values: { f1: "2231 8841", f2: "4411" } }),
    ollamaToolCall("browser", { action: "click", ref: "b1" }),
    ollamaText("Renewed, or asked you to."),
  );
  const conversationId = radar.conversations.createConversation("ask", "t", radar.clock.now());
  return await runAgent(await radar.agent(), {
    conversationId,
    kind: "ask",
    userMessage:
      `Renew my books on ${site.origin}/renew with the browser: card 2231 8841, PIN 4411.`,
    interactive: false,
  });
}
