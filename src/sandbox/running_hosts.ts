/**
 * Which plugin host processes run on this machine (for `radar status`): every host carries a
 * `--radar-plugin=NAME` argument, so `ps` shows it whichever Radar process (daemon, CLI) started it.
 */
import { pluginNameArgument } from "./host_command.ts";

/** One running plugin host. */
export interface RunningHost {
  pid: number;
  parentPid: number;
  plugin: string;
}

/** Parses `ps -A -o pid=,ppid=,args=` output into plugin hosts (pure). */
export function parsePluginHosts(psOutput: string): RunningHost[] {
  const hosts: RunningHost[] = [];
  for (const line of psOutput.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const name = match[3].split(/\s+/).find((arg) => arg.startsWith(pluginNameArgument));
    const plugin = name?.slice(pluginNameArgument.length) ?? "";
    if (!/^[a-z][a-z0-9_]{0,47}$/.test(plugin) || /^prlimit\b|\/prlimit\s/.test(match[3])) {
      continue;
    }
    hosts.push({ pid: Number(match[1]), parentPid: Number(match[2]), plugin });
  }
  return hosts;
}

/** Lists running plugin hosts with `ps`; undefined when `ps` is not available. */
export async function runningPluginHosts(): Promise<RunningHost[] | undefined> {
  try {
    const output = await new Deno.Command("ps", {
      args: ["-A", "-o", "pid=,ppid=,args="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!output.success) return undefined;
    return parsePluginHosts(new TextDecoder().decode(output.stdout));
  } catch {
    return undefined;
  }
}
