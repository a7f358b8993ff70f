/** Runs `radar …` as a real subprocess with exactly the flags of `deno task radar`. */
import { join } from "node:path";
import { flagsOfTask } from "../../scripts/task_flags.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const deno = JSON.parse(Deno.readTextFileSync(join(root, "deno.json")));

/** The runtime flags of `deno task radar` (what the compiled binary gets). */
export const radarFlags: string[] = flagsOfTask(deno.tasks.radar);

/** A clean environment for a subprocess: only PATH, HOME, the data dir and the Deno cache. */
export function radarEnvironment(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    NO_COLOR: "1",
    ...extra,
  };
}

/** What a finished `radar` process printed. */
export interface RadarRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `radar args…` in `home` to completion, optionally feeding `stdin`. */
export async function runRadar(
  home: string,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<RadarRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...radarFlags, join(root, "main.ts"), ...args],
    cwd: home,
    env: radarEnvironment(home, options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
