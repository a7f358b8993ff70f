/**
 * Runs Radar as a real subprocess, exactly as `deno task radar` does (same flags, main.ts), in a
 * temp HOME with its own data directory and config file, and a cleared environment.
 */
import { join } from "node:path";
import { flagsOfTask } from "../../scripts/task_flags.ts";
import { readLock } from "../../src/daemon/lock_file.ts";
import { fromFileUrl } from "../project/file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
/** The runtime flags of `deno task radar` (what the compiled binary gets). */
export const radarFlags: string[] = flagsOfTask(
  JSON.parse(Deno.readTextFileSync(join(root, "deno.json"))).tasks.radar,
);

/** A temp home for one Radar: `home/radar.yaml`, data in `home/data`. */
export interface RadarHome {
  home: string;
  dataDir: string;
  configPath: string;
  /** `radar <args>` in this home, as a command ready to spawn or run. */
  command(args: string[]): Deno.Command;
  remove(): void;
}

/** Creates a temp home with `configText` as its radar.yaml. */
export function createRadarHome(configText: string): RadarHome {
  const home = Deno.makeTempDirSync({ prefix: "radar-home-" });
  const dataDir = join(home, "data");
  const configPath = join(home, "radar.yaml");
  Deno.writeTextFileSync(configPath, configText);
  return {
    home,
    dataDir,
    configPath,
    command: (args) => radarCommand(home, args, { env: { RADAR_CONFIG: configPath } }),
    remove: () => Deno.removeSync(home, { recursive: true }),
  };
}

/** A running `radar serve`. */
export interface ServingRadar {
  /** The dashboard's address, without a trailing slash. */
  url: string;
  pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits; returns the exit code. */
  stop(): Promise<number>;
}

/** Starts `radar serve --port 0` and waits until its lock file names the dashboard URL. */
export async function startRadarServe(radar: RadarHome, seconds = 60): Promise<ServingRadar> {
  const child = radar.command(["serve", "--port", "0"]).spawn();
  let errors = "";
  const draining = Promise.all([
    child.stdout.pipeTo(new WritableStream()),
    child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (text) => void (errors += text) }),
    ),
  ]).catch(() => {});
  let exited: number | undefined;
  const status = child.status.then((result) => exited = result.code);
  const stop = async () => {
    if (exited === undefined) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
    }
    await status;
    await draining;
    return exited!;
  };
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    const lock = readLock(radar.dataDir);
    if (lock?.url && lock.pid === child.pid) {
      return { url: lock.url, pid: child.pid, stderr: () => errors, stop };
    }
    if (exited !== undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (exited === undefined) child.kill("SIGKILL");
  await stop();
  throw new Error(`radar serve did not start (exit ${exited}): ${errors.trim()}`);
}

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

/**
 * `radar args…` in `home` as a command ready to spawn or run: the flags of `deno task radar` plus
 * `runFlags` (a V8 heap cap, say), a clean environment with `env` added, stdout and stderr piped.
 */
export function radarCommand(
  home: string,
  args: string[],
  options: { env?: Record<string, string>; runFlags?: string[]; stdin?: "null" | "piped" } = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...radarFlags, ...(options.runFlags ?? []), join(root, "main.ts"), ...args],
    cwd: home,
    env: radarEnvironment(home, options.env),
    clearEnv: true,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  });
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
  const child = radarCommand(home, args, {
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
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

/** Writes `text` as the user's config in `home` ($HOME/.config/radar/radar.yaml); returns its path. */
export function writeUserConfig(home: string, text: string): string {
  const path = join(home, ".config", "radar", "radar.yaml");
  Deno.mkdirSync(join(home, ".config", "radar"), { recursive: true });
  Deno.writeTextFileSync(path, text);
  return path;
}
