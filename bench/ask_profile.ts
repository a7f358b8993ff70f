/**
 * Where `radar ask`'s CPU goes before its first model request, from V8's sampling profile
 * (`deno run --cpu-prof`): each sample up to the first `op_fetch` is counted by what ran. Kinds:
 * module loading (V8 idle, mostly while Deno reads modules from its cache, and compiling), the
 * garbage collector, zod, yaml, Deno's node: layer (its extension scripts loaded on first use),
 * Radar's own code, the rest. zod's time is also told by the Radar function that called it
 * (building the config schema, validating, tool schemas to JSON Schema, other modules' top
 * levels). The profiler slows the process down, so shares are what to read, not milliseconds.
 */
import { join } from "node:path";
import { radarEnvironment, radarFlags } from "../tests/helpers/radar_process.ts";
import { firstRequestServer } from "./model_server.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const main = new URL("../main.ts", import.meta.url).pathname;
const ownFile = /^file:\/\/.*?\/((?:src|web)\/.*|main\.ts)$/;

/** The kind of work a sample's innermost frame is. */
function kindOf(frame: ProfileNode["callFrame"]): string {
  const { functionName: name, url } = frame;
  if (name === "(idle)" || name === "(program)") {
    return "module loading and compiling (V8 idle, program)";
  }
  if (name === "(garbage collector)") return "garbage collector";
  if (/\/zod\//.test(url)) return "zod";
  if (/\/yaml\//.test(url)) return "yaml";
  if (/^(ext:deno_node|node:)/.test(url) || /^op_(load_ext_script|lazy_load_esm)/.test(name)) {
    return "Deno's node: layer";
  }
  if (ownFile.test(url)) return "Radar's own code";
  return "other (Deno, npm packages, ops)";
}

/** The nearest Radar function on a sample's stack that led to zod, grouped by what it does. */
function zodCaller(stack: ProfileNode["callFrame"][]): string {
  const own = stack.find((frame) => ownFile.test(frame.url));
  if (!own) return "zod: no Radar caller";
  const file = own.url.replace(ownFile, "$1");
  if (file.startsWith("src/config/") && own.functionName === "") {
    return "zod: building the config schema";
  }
  if (file === "src/config/loader.ts") return "zod: validating the config";
  if (own.functionName === "compactJsonSchema") return "zod: tool schemas to JSON Schema";
  if (file === "src/config/front_matter.ts") return "zod: front matter";
  return own.functionName === "" ? "zod: other modules' top level" : "zod: other calls";
}

/** Milliseconds per kind (and per zod caller) before the first request, summed over `profile`. */
function shares(profile: CpuProfile, into: Map<string, number>): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  for (let index = 0; index < profile.samples.length; index++) {
    const leaf = nodes.get(profile.samples[index])!;
    if (leaf.callFrame.functionName === "op_fetch") break;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const kind = kindOf(leaf.callFrame);
    into.set(kind, (into.get(kind) ?? 0) + ms);
    if (kind !== "zod") continue;
    const stack: ProfileNode["callFrame"][] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      stack.push(nodes.get(id)!.callFrame);
    }
    const caller = zodCaller(stack);
    into.set(caller, (into.get(caller) ?? 0) + ms);
  }
}

/** `radar ask hello` profiled `runs` times; the mean milliseconds of each kind, largest first. */
export async function askProfile(runs = 3): Promise<Array<{ kind: string; ms: number }>> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-bench-ask-profile-" });
  const server = firstRequestServer();
  try {
    const profiles = join(dir, "profiles");
    const ask = (flags: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", ...radarFlags, ...flags, main, "ask", "hello"],
        cwd: dir,
        env: radarEnvironment(dir, { RADAR_LLM_BASE_URL: server.url }),
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
    // The data folder and database, then the remembered config (written by the second start).
    await ask([]);
    await ask([]);
    for (let run = 0; run < runs; run++) {
      await ask(["--cpu-prof", `--cpu-prof-dir=${profiles}`]);
    }
    const totals = new Map<string, number>();
    for (const entry of Deno.readDirSync(profiles)) {
      shares(JSON.parse(Deno.readTextFileSync(join(profiles, entry.name))), totals);
    }
    return [...totals].map(([kind, ms]) => ({ kind, ms: ms / runs }))
      .sort((a, b) => b.ms - a.ms);
  } finally {
    await server.close();
    Deno.removeSync(dir, { recursive: true });
  }
}
