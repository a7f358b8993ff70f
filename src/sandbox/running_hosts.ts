/**
 * Which plugin host processes of this Radar run (for `radar status`): every host carries a
 * `--radar-plugin=NAME` argument and its Radar's `--radar-owner=TAG` (a hash of the data folder),
 * so `ps` shows it whichever process of this Radar (daemon, CLI) started it, and never lists the
 * hosts of another Radar on the same machine.
 */
import { createHash } from "node:crypto";
import { ownerArgument, pluginNameArgument } from "./host_command.ts";

/** The tag of the Radar whose data folder is `dataDir` (16 hex digits of its SHA-256). */
export function ownerTag(dataDir: string): string {
  return createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
}

/** One running plugin host. */
export interface RunningHost {
  pid: number;
  parentPid: number;
  plugin: string;
}

/** Parses `ps -A -o pid=,ppid=,args=` output into the plugin hosts of `owner` (pure). */
export function parsePluginHosts(psOutput: string, owner: string): RunningHost[] {
  const hosts: RunningHost[] = [];
  for (const line of psOutput.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const args = match[3].split(/\s+/);
    if (!args.includes(`${ownerArgument}${owner}`)) continue;
    const name = args.find((arg) => arg.startsWith(pluginNameArgument));
    const plugin = name?.slice(pluginNameArgument.length) ?? "";
    if (!/^[a-z][a-z0-9_]{0,47}$/.test(plugin) || /^prlimit\b|\/prlimit\s/.test(match[3])) {
      continue;
    }
    hosts.push({ pid: Number(match[1]), parentPid: Number(match[2]), plugin });
  }
  return hosts;
}

/** Lists the running plugin hosts of `owner` with `ps`; undefined when `ps` is not available. */
export async function runningPluginHosts(owner: string): Promise<RunningHost[] | undefined> {
  try {
    const output = await new Deno.Command("ps", {
      args: ["-A", "-o", "pid=,ppid=,args="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!output.success) return undefined;
    return parsePluginHosts(new TextDecoder().decode(output.stdout), owner);
  } catch {
    return undefined;
  }
}
