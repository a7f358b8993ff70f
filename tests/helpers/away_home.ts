/**
 * A home for "act while I'm away" tests: a real Radar whose model is the fake LLM server over
 * HTTP, a capture server standing in for ntfy, the dashboard on a loopback port (the approval
 * buttons point there), a watched ~/Downloads with a durable folder watcher, and no quiet hours
 * (the heartbeat runs at night).
 */
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { daemonSources } from "../../src/daemon/watchers.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { type RunningWebServer, startWebServer } from "../../web/server.ts";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";
import { type FakeNtfyServer, startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { buildPdf } from "./pdf_factory.ts";

/** The running pieces of one test. */
export interface AwayHome {
  home: string;
  radar: Radar;
  llm: FakeLlmServer;
  ntfy: FakeNtfyServer;
  web: RunningWebServer;
  /** The dashboard's address without a trailing slash (what the buttons start with). */
  base: string;
  clock: ManualClock;
  env: Record<string, string>;
  /** Every URL Radar's own fetch requested (tools and notifications). */
  requested: string[];
  /** Drops a real PDF with `text` into ~/Downloads and lets the watcher queue its event. */
  dropPdf(name: string, text: string): Promise<string>;
  /** Drops `bytes` at `path` (relative to the home) and lets the watcher queue its event. */
  drop(path: string, bytes: Uint8Array): Promise<string>;
  /** ntfy JSON messages received (approval notices), parsed. */
  notices(): Array<Record<string, unknown>>;
  /** A session cookie of the dashboard, as a browser logged in to it holds (a fresh login). */
  login(): Promise<string>;
  /**
   * What the phone does with a notice's Approve button: opens its page in a browser logged in to
   * the dashboard (it shows the whole call there, its form carrying the shown hash) and presses
   * Approve on it. The page's HTML and the press's answer.
   */
  approveOnPhone(url: string): Promise<{ page: string; status: number; text: string }>;
}

/** Runs `work` in a fresh away home; everything is stopped and removed afterwards. */
export async function withAwayHome(
  options: {
    yaml?: string;
    watchers?: string;
    folders?: string[];
    /** See `RadarOptions.usersNetwork` (browser tests: `testUsersNetwork`). */
    usersNetwork?: (address: string) => boolean;
  },
  work: (home: AwayHome) => Promise<void>,
): Promise<void> {
  const llm = FakeLlmServer.start();
  const ntfy = startFakeNtfy();
  const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-away-" }));
  Deno.mkdirSync(join(home, "Downloads"));
  for (const folder of options.folders ?? []) {
    Deno.mkdirSync(join(home, folder), { recursive: true });
  }
  const config = join(home, "radar-test.yaml");
  Deno.writeTextFileSync(
    config,
    `radar:
  timezone: "UTC"
llm:
  retries: 0
plugins:
  enabled: false
heartbeat:
  quiet_hours: null
notifications:
  ntfy: { url: "${ntfy.url}", topic: "away" }
watchers:
  - path: "~/Downloads"
    pattern: "*.pdf"
    action: "new_pdf_detected"
${options.watchers ?? ""}${options.yaml ?? ""}`,
  );
  const env: Record<string, string> = {
    HOME: home,
    RADAR_CONFIG: config,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: llm.url,
  };
  // Starts at the real time: `radar` commands run in-process read the system clock and must agree
  // with the runtime about what has expired (the tests move this clock, never wait on it).
  const clock = new ManualClock(new Date());
  const requested: string[] = [];
  const radar = await openRadar({
    env,
    cwd: home,
    clock,
    usersNetwork: options.usersNetwork,
    logLevel: "error",
    fetch: (input, init) => {
      requested.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
  const web = startWebServer({ runtime: radar, host: "127.0.0.1", port: 0, env, cwd: home });
  // The buttons point at the dashboard the way the phone would reach it.
  radar.config.web.public_url = web.url;
  const timers = new ManualTimers();
  let now = 1_000_000;
  const watchers = daemonSources(radar, { timers, env, now: () => now });
  for (const watcher of watchers) await watcher.start();
  const drop = async (path: string, bytes: Uint8Array) => {
    const full = join(home, path);
    Deno.writeFileSync(full, bytes);
    for (const watcher of watchers) await watcher.reconcile("overflow");
    now += 3_000;
    timers.fireAll();
    await Promise.resolve();
    return full;
  };
  const login = async () => {
    const response = await fetch(web.loginLink(), { redirect: "manual" });
    await response.body?.cancel();
    const cookie = response.headers.get("set-cookie")?.split(";")[0];
    if (!cookie) throw new Error(`no session cookie from the login link (${response.status})`);
    return cookie;
  };
  const approveOnPhone = async (url: string) => {
    const cookie = await login();
    const page = await (await fetch(url, { headers: { cookie } })).text();
    const shown = /name="shown" value="([0-9a-f]{64})"/.exec(page)?.[1];
    if (!shown) return { page, status: 0, text: "the page has no Approve form" };
    const response = await fetch(url, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: `shown=${shown}`,
    });
    return { page, status: response.status, text: await response.text() };
  };
  try {
    await work({
      home,
      radar,
      llm,
      ntfy,
      web,
      base: web.url.replace(/\/+$/, ""),
      clock,
      env,
      requested,
      drop,
      dropPdf: (name, text) => drop(join("Downloads", name), buildPdf([{ text }])),
      notices: () =>
        ntfy.requests.filter((request) => request.path === "/").map((request) =>
          JSON.parse(request.body)
        ),
      login,
      approveOnPhone,
    });
  } finally {
    for (const watcher of watchers) watcher.close();
    await web.close();
    radar.close();
    await llm.close();
    await ntfy.close();
    Deno.removeSync(home, { recursive: true });
  }
}
