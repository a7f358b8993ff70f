/** The `backup:` line of `radar status`: the schedule and the newest archive in the folder. */
import type { Radar } from "../../runtime/open_radar.ts";
import { backupFolder, listBackups } from "../../adapters/backup/backup_folder.ts";
import { formatDateTime } from "../../core/zoned_time.ts";

/** One line (two when the newest backup is overdue). */
export function backupStatusLines(radar: Radar, env: Record<string, string | undefined>): string[] {
  const { every_hours: everyHours, keep } = radar.config.backup;
  const folder = backupFolder(radar.config, radar.dataDir, env);
  let newest: Date | undefined;
  try {
    newest = listBackups(folder)[0]?.at;
  } catch { /* an unreadable folder: said as "none" */ }
  const last = newest
    ? `newest ${formatDateTime(newest, radar.config.radar.timezone || undefined, { zone: true })}`
    : "none yet";
  if (!everyHours) {
    return [
      `backup:    not scheduled (backup.every_hours); ${last} in ${folder}; radar backup writes one now`,
    ];
  }
  const lines = [`backup:    every ${everyHours} h to ${folder} (keep ${keep}); ${last}`];
  const age = newest ? radar.clock.now().getTime() - newest.getTime() : Infinity;
  if (newest && age > 2 * everyHours * 60 * 60_000) {
    lines.push("  OVERDUE: the newest backup is more than two intervals old (see radar logs)");
  }
  return lines;
}
