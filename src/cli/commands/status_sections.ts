/** The sections of `radar status` after the basics: daemon, exec, plugins (sources: status.ts). */
import type { Radar } from "../../runtime/open_radar.ts";
import type { WatcherReport } from "../../sources/watched_folders.ts";
import { execStatusLines } from "./exec_status.ts";
import { daemonStatus } from "./daemon_status.ts";
import { pluginStatusLines } from "./plugin_status.ts";
import { awayStatusLines } from "./away_status.ts";
import { backupStatusLines } from "./backup_status.ts";
import { budgetStatusLines } from "./budget_status.ts";
import { browserStatusLines } from "./browser_status.ts";
import { ntfyStatusLines } from "./ntfy_status.ts";
import { channelStatusLines } from "../../channels/channel_status.ts";

/**
 * A section of `radar status` contributed by a concern (daemon, tools, plugins); `watchers` are
 * the folder watchers' reports, looked at once per status.
 */
export type StatusSection = (
  radar: Radar,
  watchers: WatcherReport[],
) => Promise<string[]> | string[];

/** Extra status sections, in order; concerns append theirs. */
export const statusSections: StatusSection[] = [
  daemonStatus,
  budgetStatusLines,
  async (radar) => {
    const personalities = await radar.personalities();
    const problem = personalities.problem();
    return [`personality: ${personalities.activeName()}${problem ? ` — ${problem}` : ""}`];
  },
  (radar) => execStatusLines(radar, Deno.env.toObject()),
  (radar) => pluginStatusLines(radar),
  browserStatusLines,
  awayStatusLines,
  (radar) => ntfyStatusLines(radar.config, radar.dataDir),
  (radar) => channelStatusLines(radar.channels.status(), radar.config.radar.timezone || undefined),
  (radar) => backupStatusLines(radar, Deno.env.toObject()),
];
