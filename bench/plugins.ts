/**
 * Plugin host benchmarks: warm call round trip (target p50 < 2 ms), cold start (< 150 ms), the
 * cold start of a host with a network grant (DNS check + deny list), and what one plugin
 * pre_tool_call hook adds to a tool call.
 */
import type { BenchSuite } from "./index.ts";
import { ManualClock } from "../src/adapters/clock.ts";
import { silentLogger } from "../src/core/ports.ts";
import { defineTool } from "../src/core/tool_definition.ts";
import { emptyGrant, type PluginGrant } from "../src/sandbox/permissions.ts";
import { PluginProcess } from "../src/sandbox/plugin_process.ts";
import { validatePluginFiles } from "../src/plugins/plugin_files.ts";
import { PluginHooks, registerPluginHooks } from "../src/plugins/plugin_hooks.ts";
import { Hooks, hookToolGate } from "../src/core/hooks.ts";
import { PluginHostPool } from "../src/plugins/plugin_tools.ts";
import { z } from "zod";

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))].toFixed(2),
  );
}

function echoProcess(grant: PluginGrant = emptyGrant): PluginProcess {
  return new PluginProcess({
    code: {
      name: "bench_echo",
      files: {
        "tool.ts": "export function echo(args: { text: string }): string { return args.text; }",
      },
      entry: "tool.ts",
      functions: ["echo"],
    },
    grant,
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
    const netCold: number[] = [];
    for (let i = 0; i < 5; i++) {
      const process = echoProcess({ ...emptyGrant, net: ["localhost:9", "example.com:443"] });
      const started = performance.now();
      await process.call("echo", { text: "cold" });
      netCold.push(performance.now() - started);
      await process.stop();
    }
    const hookOverhead = await hookRoundTrips();
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
      {
        metric: "cold start with a network grant (DNS check, deny list) p50",
        value: percentile(netCold, 0.5),
        unit: "ms",
      },
      {
        metric: "tool call with one plugin pre_tool_call hook, added p50",
        value: hookOverhead,
        unit: "ms",
        target: "< 2 ms",
        met: hookOverhead < 2,
      },
    ];
  },
};

/** p50 of a plugin pre_tool_call hook answering "allow", through the gate the agent loop runs. */
async function hookRoundTrips(): Promise<number> {
  const checked = validatePluginFiles("bench_guard", "(bench)", {
    "manifest.yaml": `name: bench_guard
version: 1.0.0
description: Allows everything
trust_level: sandbox
capabilities: [hook]
hooks:
  - hook_point: pre_tool_call
    function: allow
`,
    "tool.ts": "export function allow(): void {}",
  });
  if (!checked.ok) throw new Error(checked.errors.join("; "));
  const pool = new PluginHostPool({
    callTimeoutMs: 10_000,
    memoryMb: 128,
    idleMs: 60_000,
    maxResultChars: 16_000,
    env: Deno.env.toObject(),
  });
  const hooks = new PluginHooks({
    pool,
    clock: new ManualClock(new Date()),
    logger: silentLogger,
  });
  const plugin = { folder: checked.folder, grant: emptyGrant, approval: {} as never };
  hooks.update([plugin]);
  // Through the runtime's path: the hook registry and its tool gate.
  const registry = new Hooks();
  registerPluginHooks(registry, hooks);
  const gate = hookToolGate(registry);
  const tool = defineTool({
    name: "noop",
    description: "Nothing",
    input: z.object({}),
    run: () => Promise.resolve(""),
  });
  const context = {
    kind: "ask" as const,
    interactive: false,
    signal: new AbortController().signal,
  };
  const times: number[] = [];
  try {
    await gate({ tool, arguments: {} }, context);
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      const blocked = await gate({ tool, arguments: { i } }, context);
      times.push(performance.now() - started);
      if (blocked) throw new Error(blocked.text);
    }
  } finally {
    await pool.stopAll();
  }
  return percentile(times, 0.5);
}
