/**
 * Soak: `radar serve` as a real subprocess under a steady busy load (a file dropped into a
 * watched folder every second, a heartbeat every few seconds that notifies through a fake ntfy,
 * dashboard requests), its RSS sampled from /proc. Prints RSS growth per hour after warm-up
 * (least-squares slope; target ≤ 1 MB/hour) and the idle RSS of a fresh daemon (target ≤ 60 MB).
 *
 * Length by environment (default a short run for `deno task bench`):
 *   RADAR_SOAK_SECONDS=7200 deno task bench soak     # the 2-hour soak
 *   RADAR_SOAK_WARMUP_SECONDS=600                    # warm-up excluded from the slope (default 25 %)
 * The heartbeat rhythm itself (15-minute interval, backlogs, 24 idle hours) is soaked on a
 * simulated clock by the daemon suite and tests/application/scheduler_test.ts.
 */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import {
  daemonEnvironment,
  daemonPermissionFlags,
  daemonV8Flags,
} from "../src/daemon/daemon_command.ts";
import { readLock } from "../src/daemon/lock_file.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../tests/fakes/fake_llm_server.ts";
import { startFakeNtfy } from "../tests/fakes/fake_ntfy_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process in MB. */
export async function rssMb(pid: number): Promise<number> {
  return (await rssParts(pid)).total;
}

/** Least-squares slope of `points` (x seconds, y MB), in MB per hour. */
export function slopePerHour(points: ReadonlyArray<{ seconds: number; mb: number }>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanX = points.reduce((sum, point) => sum + point.seconds, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.mb, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.seconds - meanX) * (point.mb - meanY);
    variance += (point.seconds - meanX) ** 2;
  }
  return variance ? covariance / variance * 3600 : 0;
}

/** Deno's module cache of this process (where `deno run main.ts` finds its compiled modules). */
export function denoDir(): string {
  return Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
}

/** What an idle or busy process holds, in MB. */
export interface RssSample {
  /** VmRSS = anon + file + shmem. */
  total: number;
  anon: number;
  file: number;
}

/**
 * Resident memory of a process by kind, in MB, from one read of /proc/PID/status (through
 * `cat`: Deno wants --allow-all for /proc).
 */
export async function rssParts(pid: number): Promise<RssSample> {
  const output = await new Deno.Command("cat", { args: [`/proc/${pid}/status`] }).output();
  const text = new TextDecoder().decode(output.stdout);
  const kb = (field: string) => Number(text.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
  return { total: kb("VmRSS") / 1024, anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
}

/**
 * Extra variables for the soaked daemon, to compare allocator settings without editing code:
 * `RADAR_SOAK_DAEMON_ENV="MALLOC_ARENA_MAX=2"` (space-separated NAME=VALUE pairs).
 */
function extraDaemonEnv(): Record<string, string> {
  const pairs = (Deno.env.get("RADAR_SOAK_DAEMON_ENV") ?? "").split(/\s+/).filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => [pair.split("=")[0], pair.slice(pair.indexOf("=") + 1)]),
  );
}

/** A running `radar serve`. */
export interface Serve {
  child: Deno.ChildProcess;
  url: string;
  dir: string;
}

/** `radar serve` as `radar start` runs it (or with other V8 flags and extra variables). */
export async function startServe(
  dir: string,
  yaml: string,
  options: { v8Flags?: string[]; env?: Record<string, string> } = {},
): Promise<Serve> {
  Deno.writeTextFileSync(join(dir, "radar.yaml"), yaml);
  const main = new URL("../main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    // As `radar start` and the service files run it.
    args: [
      "run",
      ...daemonPermissionFlags,
      ...(options.v8Flags ?? daemonV8Flags),
      main,
      "serve",
      "--port",
      "0",
    ],
    cwd: dir,
    // The caller's Deno cache: a fresh HOME alone would make the daemon download and transpile
    // every module at start (a cold cache, measured as ~20 MB of extra RSS that is not Radar's).
    env: {
      ...daemonEnvironment,
      HOME: dir,
      DENO_DIR: denoDir(),
      RADAR_DATA_DIR: join(dir, "data"),
      RADAR_CONFIG: join(dir, "radar.yaml"),
      ...extraDaemonEnv(),
      ...options.env,
    },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const deadline = performance.now() + 30_000;
  let url: string | undefined;
  while (!(url = readLock(join(dir, "data"))?.url)) {
    if (performance.now() > deadline) throw new Error("radar serve did not start");
    await sleep(100);
  }
  return { child, url, dir };
}

/** Stops a daemon started by `startServe`. */
export async function stop(serve: Serve): Promise<void> {
  try {
    serve.child.kill("SIGTERM");
  } catch { /* gone */ }
  await serve.child.status;
}

/** A fresh daemon with nothing to do (shipped flags unless others are given), sampled settled. */
export async function idleRss(
  settleSeconds: number,
  options: { v8Flags?: string[]; env?: Record<string, string> } = {},
): Promise<RssSample> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-soak-idle-" });
  const serve = await startServe(dir, `llm:\n  base_url: "http://127.0.0.1:9"\n`, options);
  try {
    await sleep(settleSeconds * 1000);
    return await rssParts(serve.child.pid);
  } finally {
    await stop(serve);
    Deno.removeSync(dir, { recursive: true });
  }
}

async function busySoak(seconds: number, warmupSeconds: number): Promise<BenchLine[]> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-soak-" });
  const inbox = join(dir, "inbox");
  Deno.mkdirSync(inbox);
  const llm = FakeLlmServer.start();
  const ntfy = startFakeNtfy();
  llm.fallback = () => {
    // deno-lint-ignore no-explicit-any
    const last = (llm.chatRequests.at(-1)!.body as any).messages.at(-1);
    // Keep the fake's own memory flat over hours.
    llm.requests.length = 0;
    ntfy.requests.length = 0;
    return last?.role === "tool"
      ? ollamaText("Done.")
      : ollamaToolCall("notify", { message: "Files arrived" });
  };
  const yaml = `radar:
  timezone: "UTC"
llm:
  provider: "ollama"
  base_url: "${llm.url}"
  retries: 0
heartbeat:
  quiet_hours: null
notifications:
  ntfy: { url: "${ntfy.url}", topic: "soak" }
watchers:
  - path: "${inbox}"
    pattern: "*.pdf"
    action: "new_pdf_detected"
`;
  const serve = await startServe(dir, yaml);
  const samples: Array<{ seconds: number; mb: number }> = [];
  const started = performance.now();
  let files = 0;
  let nextReport = 600;
  try {
    while ((performance.now() - started) / 1000 < seconds) {
      const elapsed = (performance.now() - started) / 1000;
      const name = join(inbox, `scan-${files++}.pdf`);
      Deno.writeTextFileSync(name, `%PDF-1.4 soak ${files}`);
      if (files > 20) Deno.removeSync(join(inbox, `scan-${files - 21}.pdf`));
      if (files % 4 === 0) serve.child.kill("SIGUSR2");
      const health = await fetch(`${serve.url}/health`).catch(() => undefined);
      await health?.body?.cancel();
      if (files % 5 === 0) samples.push({ seconds: elapsed, mb: await rssMb(serve.child.pid) });
      // A long soak prints as it goes: RSS every 10 minutes (the slope so far after warm-up).
      if (elapsed >= nextReport) {
        const sofar = samples.filter((sample) => sample.seconds >= warmupSeconds);
        console.log(
          `  [soak ${Math.round(elapsed / 60)} min] RSS ${samples.at(-1)?.mb.toFixed(1)} MB` +
            (sofar.length > 10
              ? `, slope after warm-up ${slopePerHour(sofar).toFixed(1)} MB/hour`
              : ""),
        );
        nextReport += 600;
      }
      await sleep(1000);
    }
  } finally {
    await stop(serve);
    await llm.close();
    await ntfy.close();
    Deno.removeSync(dir, { recursive: true });
  }
  const after = samples.filter((sample) => sample.seconds >= warmupSeconds);
  const slope = slopePerHour(after);
  const first = after[0]?.mb ?? 0;
  const last = after.at(-1)?.mb ?? 0;
  return [
    {
      metric: `busy radar serve RSS growth after ${warmupSeconds} s warm-up (${seconds} s run${
        Deno.env.get("RADAR_SOAK_DAEMON_ENV") ? `, ${Deno.env.get("RADAR_SOAK_DAEMON_ENV")}` : ""
      })`,
      value: Math.round(slope * 10) / 10,
      unit: "MB/hour",
      target: "≤ 1",
      met: slope <= 1,
    },
    {
      metric: "busy radar serve RSS, first → last sample after warm-up",
      value: Math.round((last - first) * 10) / 10,
      unit: `MB (${first.toFixed(1)} → ${last.toFixed(1)})`,
    },
    { metric: "files dropped during the soak", value: files, unit: "files" },
    {
      metric: "busy RSS every minute",
      value: samples.length,
      unit: `samples: ${
        samples.filter((_, index) => index % 12 === 0).map((sample) => sample.mb.toFixed(1))
          .join(" → ")
      } MB`,
    },
  ];
}

/** The soak suite. */
export const soakSuite: BenchSuite = {
  name: "soak",
  run: async () => {
    if (Deno.build.os !== "linux") return [];
    const seconds = Number(Deno.env.get("RADAR_SOAK_SECONDS") ?? 60);
    const warmup = Number(Deno.env.get("RADAR_SOAK_WARMUP_SECONDS") ?? Math.round(seconds / 4));
    const idle = await idleRss(10);
    return [
      {
        metric: "idle RSS of a fresh radar serve after 10 s",
        value: Math.round(idle.total * 10) / 10,
        unit: `MB (anonymous ${idle.anon.toFixed(1)}, file-backed ${idle.file.toFixed(1)})`,
        target: "≤ 60",
        met: idle.total <= 60,
      },
      ...await busySoak(seconds, warmup),
    ];
  },
};
