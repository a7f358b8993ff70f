/**
 * `deno task bench lean`: Radar against its floors, measured side by side in one run (the machine's
 * load moves both), and where the difference goes.
 *
 * - Idle memory: `radar serve` with the default config and one watcher against the daemon floor
 *   (bare Deno importing commander, zod, yaml, croner and hono, node:sqlite open, Deno.serve and
 *   Deno.cron idle); target ≤ floor + 15 MB. Then both split by mapping (smaps) and the heap by
 *   module group and kind (a heap snapshot through the inspector).
 * - Start-up: `radar --version` against the CLI floor (commander, zod, yaml) and `radar ask` to
 *   its first model request against the ask floor (the same plus node:sqlite and one POST);
 *   targets ≤ 2× the floor. Then the CLI's start-up per module group.
 * - Each feature's first use (bench/feature_first_use.ts).
 */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import { firstRequestServer } from "./model_server.ts";
import { radarEnvironment, radarFlags } from "../tests/helpers/radar_process.ts";
import { daemonV8Flags } from "../src/daemon/daemon_command.ts";
import { freePort, inspect } from "./inspector.ts";
import {
  describeShare,
  heapBreakdown,
  type MappingParts,
  mappingParts,
  scriptGroups,
} from "./memory_breakdown.ts";
import {
  askFloorScript,
  cliFloorCommand,
  cliFloorScript,
  daemonFloorCommand,
  daemonFloorScript,
  writeScript,
} from "./lean_floors.ts";
import { startServe, stop } from "./soak.ts";
import { timeStartupGroups } from "./startup_groups.ts";
import { featureFirstUse } from "./feature_first_use.ts";
import { askProfile } from "./ask_profile.ts";

const settleSeconds = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const main = new URL("../main.ts", import.meta.url).pathname;

/** The default config with one watcher (and a model server nothing answers on). */
function serveConfig(dir: string): string {
  const inbox = join(dir, "inbox");
  Deno.mkdirSync(inbox, { recursive: true });
  return `llm:\n  base_url: "http://127.0.0.1:9"\nwatchers:\n  - path: "${inbox}"\n    pattern: "*.pdf"\n    action: "new_pdf_detected"\n`;
}

/** What one idle process holds, measured without and then with the inspector. */
interface IdleProcess {
  parts: MappingParts;
  heap?: Awaited<ReturnType<typeof inspect>>;
}

async function idleFloor(withInspector: boolean): Promise<IdleProcess> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-floor-" });
  const port = freePort();
  const child = daemonFloorCommand(
    writeScript(dir, "floor.ts", daemonFloorScript(dir)),
    withInspector ? [`--inspect=127.0.0.1:${port}`] : [],
  ).spawn();
  try {
    await sleep(settleSeconds * 1000);
    return withInspector
      ? { parts: await mappingParts(child.pid), heap: await inspect(port) }
      : { parts: await mappingParts(child.pid) };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    Deno.removeSync(dir, { recursive: true });
  }
}

/**
 * `radar serve` idle on a new data folder (its first start: the migrations run), or `restarted`
 * on the folder an earlier start made (as every later start: the migrations are not loaded).
 */
async function idleServe(withInspector: boolean, restarted = false): Promise<IdleProcess> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-serve-" });
  const port = freePort();
  if (restarted) await stop(await startServe(dir, serveConfig(dir)));
  const serve = await startServe(dir, serveConfig(dir), {
    v8Flags: withInspector ? [...daemonV8Flags, `--inspect=127.0.0.1:${port}`] : daemonV8Flags,
  });
  try {
    await sleep(settleSeconds * 1000);
    return withInspector
      ? { parts: await mappingParts(serve.child.pid), heap: await inspect(port) }
      : { parts: await mappingParts(serve.child.pid) };
  } finally {
    await stop(serve);
    Deno.removeSync(dir, { recursive: true });
  }
}

const describeParts = (parts: MappingParts) =>
  `MB (deno binary ${parts.denoBinary.toFixed(1)}, malloc heap ${
    parts.mallocHeap.toFixed(1)
  }, V8 heap and other anonymous ${parts.otherAnonymous.toFixed(1)}, other files ${
    parts.otherFiles.toFixed(1)
  })`;

/** Idle RSS of `radar serve` against the daemon floor, then where the difference is. */
export async function idleMemory(): Promise<BenchLine[]> {
  if (Deno.build.os !== "linux") return [];
  const floor = await idleFloor(false);
  const radar = await idleServe(false);
  const over = radar.parts.total - floor.parts.total;
  const restarted = await idleServe(false, true);
  const lines: BenchLine[] = [
    {
      metric:
        "daemon floor idle RSS (commander, zod, yaml, croner, hono, node:sqlite, serve, cron)",
      value: round(floor.parts.total),
      unit: describeParts(floor.parts),
    },
    {
      metric: "radar serve idle RSS (default config, one watcher)",
      value: round(radar.parts.total),
      unit: describeParts(radar.parts),
    },
    {
      metric: "radar serve idle RSS above the daemon floor",
      value: round(over),
      unit: "MB",
      target: "≤ 15 MB",
      met: over <= 15,
    },
    {
      metric: "radar serve idle RSS above the daemon floor, restarted on its data (no migrations)",
      value: round(restarted.parts.total - floor.parts.total),
      unit: "MB",
    },
  ];
  const floorHeap = (await idleFloor(true)).heap!;
  const radarHeap = (await idleServe(true)).heap!;
  const mb = (bytes: number) => round(bytes / 1048576);
  for (const [name, inspected] of [["floor", floorHeap], ["radar serve", radarHeap]] as const) {
    const { byKind } = heapBreakdown(inspected);
    lines.push({
      metric: `${name}: V8 heap in use after a full GC (inspector attached), by kind`,
      value: mb(inspected.heapUsed),
      unit: `MB: ${describeShare(byKind)}`,
    });
  }
  for (const group of heapBreakdown(radarHeap).groups.slice(0, 16)) {
    lines.push({
      metric: `radar serve heap, ${group.owner}`,
      value: mb(group.total),
      unit: `MB: ${describeShare(group)}`,
    });
  }
  const loaded = scriptGroups(radarHeap);
  const own = loaded.filter((group) => /^(src|web|main)/.test(group.group));
  lines.push({
    metric: "radar serve: Radar's own modules loaded",
    value: own.reduce((sum, group) => sum + group.count, 0),
    unit: `modules (${own.map((group) => `${group.group} ${group.count}`).join(", ")}); of ${
      loaded.reduce((sum, group) => sum + group.count, 0)
    } scripts in all`,
  });
  return lines;
}

/** `radar --version` and `radar ask` against their floors, interleaved, medians and ratios. */
export async function startupRatios(): Promise<BenchLine[]> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-lean-start-" });
  const server = firstRequestServer();
  try {
    const env = radarEnvironment(dir, {
      RADAR_LLM_BASE_URL: server.url,
    });
    const radar = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", ...radarFlags, main, ...args],
        cwd: dir,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      });
    const cliFloor = writeScript(dir, "cli_floor.ts", cliFloorScript());
    const askFloor = writeScript(dir, "ask_floor.ts", askFloorScript(dir));
    const timeExit = async (command: Deno.Command) => {
      const started = performance.now();
      await command.output();
      return performance.now() - started;
    };
    const timeFirstRequest = async (command: Deno.Command) => {
      const arrived = server.nextChat();
      const started = performance.now();
      const child = command.spawn();
      const at = await arrived;
      await child.status;
      return at - started;
    };
    await radar(["ask", "hello"]).output(); // the data folder and database, once
    await cliFloorCommand(askFloor, env).output();
    const rounds = 9;
    const version = { floor: [] as number[], radar: [] as number[] };
    const ask = { floor: [] as number[], radar: [] as number[] };
    // Interleaved, so a busy moment of the machine hits both sides alike.
    for (let index = 0; index < rounds; index++) {
      version.floor.push(await timeExit(cliFloorCommand(cliFloor)));
      version.radar.push(await timeExit(radar(["--version"])));
      ask.floor.push(await timeFirstRequest(cliFloorCommand(askFloor, env)));
      ask.radar.push(await timeFirstRequest(radar(["ask", "hello"])));
    }
    const middle = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
    const lines: BenchLine[] = [];
    for (
      const [name, sides] of [
        ["`radar --version` start to exit", version],
        ["`radar ask` start to first model request", ask],
      ] as const
    ) {
      const floor = middle(sides.floor);
      const measured = middle(sides.radar);
      lines.push(
        { metric: `${name}: its floor (median of ${rounds})`, value: round(floor, 0), unit: "ms" },
        { metric: `${name} (median of ${rounds})`, value: round(measured, 0), unit: "ms" },
        {
          metric: `${name} ÷ its floor`,
          value: round(measured / floor, 2),
          unit: "×",
          target: "≤ 2×",
          met: measured / floor <= 2,
        },
      );
    }
    return lines;
  } finally {
    await server.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

async function startupGroupLines(): Promise<BenchLine[]> {
  const { processStart, groups } = await timeStartupGroups("radar ask");
  return [
    {
      metric: "`radar ask` start-up: an empty `deno run` (median of 5)",
      value: round(processStart, 0),
      unit: "ms",
    },
    ...groups.map((group) => ({
      metric:
        `\`radar ask\` start-up: importing ${group.group} (${group.modules} modules, after the groups above)`,
      value: round(group.ms),
      unit: "ms",
    })),
  ];
}

async function askProfileLines(): Promise<BenchLine[]> {
  const runs = 3;
  return (await askProfile(runs)).map(({ kind, ms }) => ({
    metric: `\`radar ask\` CPU before the first request (profiled, mean of ${runs}): ${kind}`,
    value: round(ms, 0),
    unit: "ms",
  }));
}

/** The suite. */
export const leanSuite: BenchSuite = {
  name: "lean",
  async run() {
    return [
      ...await idleMemory(),
      ...await startupRatios(),
      ...await startupGroupLines(),
      ...await askProfileLines(),
      ...await featureFirstUse(),
    ];
  },
};
