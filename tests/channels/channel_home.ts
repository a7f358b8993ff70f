/**
 * A Radar talking through its chat channels for tests: a temp home whose model is the fake LLM
 * server over real HTTP, a radar.yaml with the channel sections a test gives, and the channels'
 * runtime as `radar serve` starts it (short waits). `reopen` is a restart: a new Radar and runtime
 * on the same data as another process, the old one's PID gone.
 */
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { channelRuntime } from "../../src/runtime/channel_runtime_setup.ts";
import type { ChannelRuntime } from "../../src/channels/channel_runtime.ts";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";

/** A running Radar with its channels. */
export interface ChannelHome {
  folder: string;
  env: Record<string, string>;
  llm: FakeLlmServer;
  clock: ManualClock;
  radar: Radar;
  runtime: ChannelRuntime;
  /** Stops the channels and Radar, then starts both again as a new process (PID `pid + 1`). */
  restart(): Promise<void>;
  /** Stops the channels and Radar (without removing anything). */
  stop(): Promise<void>;
}

/** Runs `work` with a Radar whose radar.yaml is `yaml` (plus no retries, no plugins). */
export async function withChannelHome(
  yaml: string,
  work: (home: ChannelHome) => Promise<void>,
  options: { now?: string; env?: Record<string, string> } = {},
): Promise<void> {
  const llm = FakeLlmServer.start();
  const folder = Deno.makeTempDirSync({ prefix: "radar-channels-" });
  const config = join(folder, "radar.yaml");
  Deno.writeTextFileSync(
    config,
    `radar:\n  timezone: UTC\nllm:\n  retries: 0\nplugins:\n  enabled: false\n${yaml}`,
  );
  const env: Record<string, string> = {
    HOME: folder,
    RADAR_CONFIG: config,
    RADAR_DATA_DIR: join(folder, "data"),
    RADAR_LLM_BASE_URL: llm.url,
    ...options.env,
  };
  const clock = new ManualClock(new Date(options.now ?? "2026-11-23T10:00:00Z"));
  let pid = 5001;
  const open = async () => {
    const me = pid;
    const radar = await openRadar({
      env,
      cwd: folder,
      clock,
      logLevel: "error",
      process: { pid: me, isAlive: (candidate) => candidate === me, elapsed: () => 0 },
    });
    const runtime = channelRuntime(radar, { env, retryBaseMs: 50, idleMs: 50 });
    runtime.start();
    return { radar, runtime };
  };
  const home = { folder, env, llm, clock, ...await open() } as ChannelHome;
  home.stop = async () => {
    home.runtime.close();
    await home.runtime.closed();
    home.radar.close();
  };
  home.restart = async () => {
    await home.stop();
    pid++;
    Object.assign(home, await open());
  };
  try {
    await work(home);
  } finally {
    await home.stop().catch(() => {});
    await llm.close();
    Deno.removeSync(folder, { recursive: true });
  }
}
