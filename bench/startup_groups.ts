/**
 * Where a start-up path's time goes (`radar ask` by default: what it loads before the first
 * model request, scripts/start_paths.ts), per module group: the npm packages, then Radar's
 * folders in layer order, imported group after group in one fresh process, timing each step
 * (loading from Deno's cache, compiling, running the top level). A group's time is what it adds
 * to what came before. The median of several processes.
 */
import { join } from "node:path";
import { loadedBy } from "../scripts/start_paths.ts";
import { radarFlags } from "../tests/helpers/radar_process.ts";
import { moduleGroup } from "./memory_breakdown.ts";
import { denoDir } from "./soak.ts";

const root = new URL("../", import.meta.url);

/** Layer order (each imports only those before it, mostly), as in ARCHITECTURE.md. */
const layerOrder = [
  "npm packages and node:",
  "src/version",
  "src/core",
  "src/config",
  "src/adapters",
  "src/hooks",
  "src/skills",
  "src/personalities",
  "src/sandbox",
  "src/tools",
  "src/sources",
  "src/plugins",
  "src/mcp",
  "src/application",
  "src/runtime",
  "src/daemon",
  "src/eval",
  "web",
  "src/cli",
  "main.ts",
];

/** One group's share of the start-up. */
export interface GroupTime {
  group: string;
  modules: number;
  /** Median milliseconds this group's import added. */
  ms: number;
}

/** What start-up `path` loads, split into layer groups, each a list of specifiers. */
export async function startupGroups(path = "radar ask"): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>(layerOrder.map((name) => [name, []]));
  for (const specifier of await loadedBy(path)) {
    const name = !specifier.startsWith("file:")
      ? layerOrder[0]
      : moduleGroup(specifier).replace(/^web\/.*/, "web");
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(specifier);
  }
  for (const [name, specifiers] of groups) if (!specifiers.length) groups.delete(name);
  return groups;
}

/**
 * Imports the groups in order in `runs` fresh processes (Radar's CLI flags) and returns each
 * group's median time, plus the median of the process start itself (an empty script).
 */
export async function timeStartupGroups(
  path = "radar ask",
  runs = 5,
): Promise<{ processStart: number; groups: GroupTime[] }> {
  const groups = await startupGroups(path);
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-groups-" });
  try {
    const files: Array<{ name: string; path: string; modules: number }> = [];
    for (const [name, specifiers] of groups) {
      const path = join(dir, `${files.length}.ts`);
      Deno.writeTextFileSync(
        path,
        specifiers.map((specifier) => `import ${JSON.stringify(specifier)};\n`).join(""),
      );
      files.push({ name, path, modules: specifiers.length });
    }
    const driver = join(dir, "driver.ts");
    Deno.writeTextFileSync(
      driver,
      `const files = ${JSON.stringify(files.map((file) => file.path))};
const times = [performance.now()];
for (const file of files) {
  await import(file);
  times.push(performance.now());
}
console.log(JSON.stringify(times));
`,
    );
    const empty = join(dir, "empty.ts");
    Deno.writeTextFileSync(empty, "");
    const config = new URL("deno.json", root).pathname;
    const samples: number[][] = [];
    const starts: number[] = [];
    for (let run = 0; run < runs; run++) {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", ...radarFlags, "--config", config, driver],
        env: { DENO_DIR: denoDir() },
        stderr: "null",
      }).output();
      const times = JSON.parse(new TextDecoder().decode(output.stdout)) as number[];
      samples.push(times.slice(1).map((time, index) => time - times[index]));
      const started = performance.now();
      await new Deno.Command(Deno.execPath(), {
        args: ["run", "--config", config, empty],
        env: { DENO_DIR: denoDir() },
      }).output();
      starts.push(performance.now() - started);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    return {
      processStart: median(starts),
      groups: files.map((file, index) => ({
        group: file.name,
        modules: file.modules,
        ms: median(samples.map((sample) => sample[index])),
      })),
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
