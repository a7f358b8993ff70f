/** The plugins' lines in `radar status`: counts by status, hooks and variables, running hosts. */
import { readLock } from "../../daemon/lock_file.ts";
import type { Radar } from "../../runtime/open_radar.ts";
import { ownerTag, type RunningHost, runningPluginHosts } from "../../sandbox/running_hosts.ts";

/** Status section: plugins. `listHosts` is injectable for tests. */
export async function pluginStatusLines(
  radar: Radar,
  listHosts: () => Promise<RunningHost[] | undefined> = () =>
    runningPluginHosts(ownerTag(radar.dataDir)),
): Promise<string[]> {
  const system = await radar.plugins();
  if (!system) return ["plugins:   disabled (plugins.enabled: false)"];
  const rows = system.api.list();
  const count = (status: string) => rows.filter((row) => row.status === status).length;
  const hooks = system.hooks.counts();
  const lines = [
    `plugins:   ${count("enabled")} enabled, ${count("disabled")} disabled, ${
      count("pending_review")
    } pending review, ${count("failed")} failed`,
    `  hooks: ${hooks.preToolCall} before tool calls, ${hooks.postToolCall} after; prompt variables: ${hooks.promptVariables}`,
  ];
  const hosts = await listHosts();
  if (!hosts) {
    lines.push("  hosts running: unknown (ps is not available)");
  } else {
    // A running host's parent is alive: the lock's PID alone says whether it is the daemon.
    const daemon = readLock(radar.dataDir);
    const described = hosts.map((host) =>
      `${host.plugin} (PID ${host.pid}${daemon?.pid === host.parentPid ? ", daemon" : ""})`
    );
    lines.push(`  hosts running: ${described.length ? described.join(", ") : "none"}`);
  }
  if (count("pending_review")) {
    lines.push("  review pending plugins with: radar plugin list; radar plugin show NAME");
  }
  return lines;
}
