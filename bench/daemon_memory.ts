/**
 * Idle memory of `radar serve` with each memory lever, measured the same way (a fresh daemon,
 * sampled after 10 s): the shipped flags and environment, other V8 flags, glibc's arena default. Prints
 * RSS split into anonymous memory (heap, V8, SQLite) and file-backed pages (the deno binary's
 * code, shared and reclaimable), and the bare-Deno floor (Deno.serve + cron + node:sqlite).
 */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import { daemonV8Flags } from "../src/daemon/daemon_command.ts";
import { denoDir, idleRss, rssParts, type RssSample } from "./soak.ts";

const settleSeconds = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The npm packages an idle `radar serve` holds (the rest load on first use). */
const idlePackages = [
  "zod",
  "yaml",
  "commander",
  "croner",
  "picomatch",
  "shell-quote",
  "ipaddr.js",
];

/**
 * The floor: what Deno itself holds with the same kinds of work and nothing of Radar's; with
 * `packages`, plus those npm packages (pinned by the project's deno.json and lock) and nothing
 * else.
 */
async function bareDeno(
  packages: string[] = [],
): Promise<RssSample> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-memory-bare-" });
  const script = join(dir, "bare.ts");
  const config = new URL("../deno.json", import.meta.url).pathname;
  Deno.writeTextFileSync(
    script,
    `${
      packages.map((name) => `import ${JSON.stringify(name)};\n`).join("")
    }import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(join(dir, "bare.db"))});
db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
Deno.cron("bare", "* * * * *", () => {});
`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-cron", "--config", config, ...daemonV8Flags, script],
    env: { DENO_DIR: denoDir() },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await sleep(settleSeconds * 1000);
    return await rssParts(child.pid);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    Deno.removeSync(dir, { recursive: true });
  }
}

const levers: Array<{ name: string; v8Flags: string[]; env?: Record<string, string> }> = [
  { name: `as shipped (${daemonV8Flags.join(" ")})`, v8Flags: daemonV8Flags },
  { name: "no flags", v8Flags: [] },
  { name: "with V8's code cache", v8Flags: ["--v8-flags=--max-semi-space-size=2"] },
  {
    name: "+ --optimize-for-size",
    v8Flags: ["--no-code-cache", "--v8-flags=--max-semi-space-size=2,--optimize-for-size"],
  },
  {
    name: "+ --max-old-space-size=64",
    v8Flags: ["--no-code-cache", "--v8-flags=--max-semi-space-size=2,--max-old-space-size=64"],
  },
  {
    // The optimizing compilers' own code (pages of the deno binary, ~1.5 MB) is touched at start:
    // building the config and tool schemas makes zod's functions hot. Hot code then runs slower.
    name: "+ --no-maglev --no-turbofan (interpreter and baseline code only)",
    v8Flags: ["--no-code-cache", "--v8-flags=--max-semi-space-size=2,--no-maglev,--no-turbofan"],
  },
  {
    name: "+ --lite-mode (interpreter only: slower pages)",
    v8Flags: ["--no-code-cache", "--v8-flags=--max-semi-space-size=2,--lite-mode"],
  },
  {
    // The shipped MALLOC_ARENA_MAX=2 matters when busy (bench soak), not idle.
    name: "glibc's default malloc arenas (8 per core)",
    v8Flags: daemonV8Flags,
    env: { MALLOC_ARENA_MAX: String(8 * navigator.hardwareConcurrency) },
  },
];

/** The suite (Linux: reads /proc). */
export const daemonMemorySuite: BenchSuite = {
  name: "daemon memory levers",
  run: async () => {
    if (Deno.build.os !== "linux") return [];
    const lines: BenchLine[] = [];
    const describe = (sampled: { anon: number; file: number }) =>
      `MB (anonymous ${sampled.anon.toFixed(1)}, file-backed ${sampled.file.toFixed(1)})`;
    const bare = await bareDeno();
    lines.push({
      metric: "idle RSS of a bare Deno (Deno.serve + cron + node:sqlite), the floor",
      value: Math.round(bare.total * 10) / 10,
      unit: describe(bare),
    });
    const withPackages = await bareDeno(idlePackages);
    lines.push({
      metric: `the same floor importing only the npm packages Radar holds idle (${
        idlePackages.join(", ")
      })`,
      value: Math.round(withPackages.total * 10) / 10,
      unit: describe(withPackages),
    });
    for (const lever of levers) {
      const idle = await idleRss(settleSeconds, lever);
      lines.push({
        metric: `idle RSS of radar serve after 10 s, ${lever.name}`,
        value: Math.round(idle.total * 10) / 10,
        unit: describe(idle),
        target: "≤ 60",
        met: idle.total <= 60,
      });
    }
    return lines;
  },
};
