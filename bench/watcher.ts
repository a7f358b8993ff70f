/**
 * `deno task bench watcher`: what never trusting the OS event stream costs. Bursts of 1,000,
 * 5,000 and 20,000 files (flat; recursive with new and moved-in subfolders) written by another
 * process, until every file is queued; and a 100,000-file folder reconciled comparing
 * fingerprints (after a burst) and names only (the idle check). Each case runs in a fresh
 * process with the daemon's V8 flags and environment, so its memory is its own.
 *
 * The bound: every file of a burst is queued, exactly once, within 10 s after the burst ends
 * (1 s of quiet, one reconcile, 2 s of settling); a 20,000-file burst adds < 64 MB at peak; a
 * 100,000-file reconcile takes < 3 s of CPU and < 64 MB (names only: < 2 s, < 32 MB), and the
 * idle check uses < 0.5 % of one core (it runs every max(5 min, 200 × its own duration)).
 */
import type { BenchLine, BenchSuite } from "./index.ts";
import { daemonEnvironment, daemonV8Flags } from "../src/daemon/daemon_command.ts";
import { defaultReconcilePolicy } from "../src/adapters/reconcile_schedule.ts";

const flags = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-env",
  "--no-prompt",
  ...daemonV8Flags,
];

interface Usage {
  seconds: number;
  cpuMs: number;
  peakExtraMb: number;
}

async function runCase(args: string[]): Promise<Record<string, unknown>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, new URL("./watcher_case.ts", import.meta.url).pathname, ...args],
    env: { ...Deno.env.toObject(), ...daemonEnvironment },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim().split("\n").at(-1) ?? "";
  if (!output.success) {
    throw new Error(`watcher case ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return JSON.parse(text);
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function burstLines(count: number, shape: "flat" | "recursive"): Promise<BenchLine[]> {
  const result = await runCase(["burst", String(count), shape]) as unknown as Usage & {
    afterWriteSeconds: number;
    queued: number;
    foundByReconcile: number;
  };
  const name = `${count.toLocaleString("en-US")}-file burst, ${shape}`;
  return [
    {
      metric: `${name}: queued`,
      value: result.queued,
      unit: "files",
      target: `= ${count}`,
      met: result.queued === count,
    },
    {
      metric: `${name}: all queued after the burst ended`,
      value: round(result.afterWriteSeconds),
      unit: "s",
      target: "< 10",
      met: result.afterWriteSeconds < 10,
    },
    { metric: `${name}: found only by reconciling`, value: result.foundByReconcile, unit: "files" },
    { metric: `${name}: CPU`, value: round(result.cpuMs / 1000), unit: "s" },
    {
      metric: `${name}: peak memory added`,
      value: round(result.peakExtraMb, 1),
      unit: "MB",
      target: "< 64",
      met: result.peakExtraMb < 64,
    },
  ];
}

async function reconcileLines(count: number, shape: "flat" | "recursive"): Promise<BenchLine[]> {
  const result = await runCase(["reconcile", String(count), shape]) as unknown as {
    full: Usage;
    idle: Usage;
  };
  const name = `${count.toLocaleString("en-US")}-file reconcile, ${shape}`;
  const { idleMs, idleSpacing } = defaultReconcilePolicy;
  const idleShare = result.idle.cpuMs / Math.max(idleMs, idleSpacing * result.idle.seconds * 1000);
  return [
    { metric: `${name}: fingerprints, wall`, value: round(result.full.seconds), unit: "s" },
    {
      metric: `${name}: fingerprints, CPU`,
      value: round(result.full.cpuMs / 1000),
      unit: "s",
      target: "< 3",
      met: result.full.cpuMs < 3000,
    },
    {
      metric: `${name}: fingerprints, peak memory added`,
      value: round(result.full.peakExtraMb, 1),
      unit: "MB",
      target: "< 64",
      met: result.full.peakExtraMb < 64,
    },
    {
      metric: `${name}: names only (idle check), CPU`,
      value: round(result.idle.cpuMs / 1000),
      unit: "s",
      target: "< 2",
      met: result.idle.cpuMs < 2000,
    },
    {
      metric: `${name}: names only, peak memory added`,
      value: round(result.idle.peakExtraMb, 1),
      unit: "MB",
      target: "< 32",
      met: result.idle.peakExtraMb < 32,
    },
    {
      metric: `${name}: idle checks' share of one core`,
      value: round(idleShare * 100, 3),
      unit: "%",
      target: "< 0.5",
      met: idleShare < 0.005,
    },
  ];
}

/** The watcher suite (Linux: it reads /proc for memory and CPU). */
export const watcherSuite: BenchSuite = {
  name: "watcher",
  async run() {
    if (Deno.build.os !== "linux") return [];
    const lines: BenchLine[] = [];
    for (const count of [1_000, 5_000, 20_000]) {
      for (const shape of ["flat", "recursive"] as const) {
        lines.push(...await burstLines(count, shape));
      }
    }
    for (const shape of ["flat", "recursive"] as const) {
      lines.push(...await reconcileLines(100_000, shape));
    }
    return lines;
  },
};
