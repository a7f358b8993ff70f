/** Daemon benchmarks: idle RSS and CPU of `radar serve`, and tokens spent by 24 idle hours. */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import { ManualClock } from "../src/adapters/clock.ts";
import { openRadar } from "../src/runtime/open_radar.ts";
import { Scheduler } from "../src/application/scheduler.ts";
import { daemonPermissionFlags, daemonV8Flags } from "../src/daemon/daemon_command.ts";
import { readLock } from "../src/daemon/lock_file.ts";

async function idleDayTokens(): Promise<BenchLine[]> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-" });
  const clock = new ManualClock(new Date("2026-11-23T00:00:00Z"));
  let calls = 0;
  const runtime = await openRadar({
    env: { HOME: dir, RADAR_DATA_DIR: join(dir, "data") },
    cwd: dir,
    clock,
    logLevel: "error",
    model: {
      provider: "counting",
      model: "counting",
      chat: () => {
        calls++;
        return Promise.resolve({ content: "", toolCalls: [] });
      },
      status: () => Promise.reject(new Error("unused")),
    },
  });
  try {
    const services = runtime;
    const scheduler = new Scheduler({
      config: runtime.config,
      clock,
      logger: runtime.logger,
      heartbeat: services.heartbeat,
      runs: services.runs,
      queue: services.queue,
      jobs: [services.taskRunner],
    });
    for (let minute = 0; minute < 24 * 60; minute++) {
      await scheduler.tick();
      clock.advance(60_000);
    }
    const totals = services.runs.totals(new Date("2026-11-22T00:00:00Z"));
    return [
      {
        metric: "tokens spent by 24 simulated idle hours",
        value: totals.promptTokens + totals.completionTokens,
        unit: "tokens",
        target: "0",
        met: totals.promptTokens + totals.completionTokens === 0,
      },
      {
        metric: "model calls in 24 idle hours",
        value: calls,
        unit: "calls",
        target: "0",
        met: calls === 0,
      },
      { metric: "ticks recorded in 24 idle hours", value: totals.runs, unit: "ticks" },
    ];
  } finally {
    runtime.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Reads /proc through `cat` (Deno wants --allow-all to read /proc itself). */
async function procStat(pid: number): Promise<{ rssKb: number; cpuTicks: number }> {
  const read = async (file: string) =>
    new TextDecoder().decode(
      (await new Deno.Command("cat", { args: [`/proc/${pid}/${file}`] }).output()).stdout,
    );
  const rssKb = Number((await read("status")).match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  const fields = (await read("stat")).replace(/^.*\) /, "").split(" ");
  return { rssKb, cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

async function idleProcess(): Promise<BenchLine[]> {
  if (Deno.build.os !== "linux") return [];
  const seconds = Number(Deno.env.get("RADAR_BENCH_IDLE_SECONDS") ?? 60);
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-serve-" });
  const main = new URL("../main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    // As `radar start` and the service files run it.
    args: ["run", ...daemonPermissionFlags, ...daemonV8Flags, main, "serve", "--port", "0"],
    cwd: dir,
    env: { RADAR_DATA_DIR: join(dir, "data"), RADAR_LLM_BASE_URL: "http://127.0.0.1:9" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const deadline = performance.now() + 30_000;
    while (!readLock(join(dir, "data"))?.url) {
      if (performance.now() > deadline) throw new Error("radar serve did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // start-up settles
    const before = await procStat(child.pid);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const after = await procStat(child.pid);
    const cpuPercent = (after.cpuTicks - before.cpuTicks) / 100 / seconds * 100;
    const rssMb = Math.round(after.rssKb / 102.4) / 10;
    return [
      {
        metric: `idle RSS of radar serve after ${seconds} s`,
        value: rssMb,
        unit: "MB",
        target: "< 80",
        met: rssMb < 80,
      },
      {
        metric: `idle CPU of radar serve over ${seconds} s`,
        value: Math.round(cpuPercent * 100) / 100,
        unit: "%",
        target: "< 1",
        met: cpuPercent < 1,
      },
    ];
  } finally {
    child.kill("SIGTERM");
    await child.status;
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The daemon suite. */
export const daemonSuite: BenchSuite = {
  name: "daemon",
  run: async () => [...await idleDayTokens(), ...await idleProcess()],
};
