/** Plugin host benchmarks: warm call round trip (target p50 < 2 ms), cold start (< 150 ms). */
import type { BenchSuite } from "./index.ts";
import { emptyGrant } from "../src/sandbox/permissions.ts";
import { PluginProcess } from "../src/sandbox/plugin_process.ts";

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))].toFixed(2),
  );
}

function echoProcess(): PluginProcess {
  return new PluginProcess({
    code: {
      name: "bench_echo",
      files: {
        "tool.ts": "export function echo(args: { text: string }): string { return args.text; }",
      },
      entry: "tool.ts",
      functions: ["echo"],
    },
    grant: emptyGrant,
    callTimeoutMs: 10_000,
    memoryMb: 128,
    idleMs: 60_000,
    maxResultChars: 16_000,
    env: Deno.env.toObject(),
  });
}

/** The plugin host suite. */
export const pluginSuite: BenchSuite = {
  name: "plugin host",
  async run() {
    const cold: number[] = [];
    for (let i = 0; i < 5; i++) {
      const process = echoProcess();
      const started = performance.now();
      await process.call("echo", { text: "cold" });
      cold.push(performance.now() - started);
      await process.stop();
    }
    const warm = echoProcess();
    const round: number[] = [];
    try {
      await warm.call("echo", { text: "warm-up" });
      for (let i = 0; i < 300; i++) {
        const started = performance.now();
        await warm.call("echo", { text: `call ${i}` });
        round.push(performance.now() - started);
      }
    } finally {
      await warm.stop();
    }
    const warmP50 = percentile(round, 0.5);
    const coldP50 = percentile(cold, 0.5);
    return [
      {
        metric: "warm plugin call p50",
        value: warmP50,
        unit: "ms",
        target: "< 2 ms",
        met: warmP50 < 2,
      },
      { metric: "warm plugin call p95", value: percentile(round, 0.95), unit: "ms" },
      {
        metric: "plugin host cold start + first call p50",
        value: coldP50,
        unit: "ms",
        target: "< 150 ms",
        met: coldP50 < 150,
      },
    ];
  },
};
