/**
 * The configured folder watchers with their counters, for `radar status` (text and --json) and
 * the dashboard: files seen, the last reconcile, and how many files only a reconcile found (a
 * non-zero count means the OS event stream lost events, and Radar caught them).
 */
import type { RadarConfig } from "../config/schema.ts";
import { expandHome } from "../config/paths.ts";
import type { WatchedFolders, WatcherReport } from "../sources/watched_folders.ts";
import { formatStoredTime } from "../core/zoned_time.ts";

/** One report per `watchers:` entry, in config order. */
export function watcherReports(
  config: Pick<RadarConfig, "watchers">,
  watchedFiles: Pick<WatchedFolders, "stats">,
  env: Record<string, string | undefined>,
): WatcherReport[] {
  return config.watchers.map((entry) => {
    const folder = expandHome(entry.path, env);
    let state: WatcherReport["state"] = "ok";
    try {
      if (!Deno.statSync(folder).isDirectory) state = "not_a_folder";
    } catch {
      state = "missing";
    }
    return {
      path: entry.path,
      folder,
      pattern: entry.pattern,
      action: entry.action,
      recursive: entry.recursive,
      state,
      stats: watchedFiles.stats(folder),
    };
  });
}

const count = (value: number) => value.toLocaleString("en-US");

/** Why a reconcile ran, in words. */
export const reconcileReasonText: Record<string, string> = {
  start: "at start",
  reappeared: "folder reappeared",
  overflow: "the OS dropped events",
  burst: "after a burst",
  new_folder: "a folder appeared",
  replaced: "folder replaced",
  error: "after a watcher error",
  idle: "idle check",
};

/** What the folder's state says beside its line. */
export function watcherStateText(report: WatcherReport): string {
  switch (report.state) {
    case "ok":
      return "ok";
    case "missing":
      return "missing (picked up when it appears)";
    case "not_a_folder":
      return "not a folder";
  }
}

/** The `radar status` lines: a header, then per watcher its line and its counters (times in `timeZone`). */
export function watcherStatusLines(reports: WatcherReport[], timeZone?: string): string[] {
  if (!reports.length) return ["watchers:  none (watchers: in radar.yaml)"];
  const lines = ["watchers:"];
  for (const report of reports) {
    const { stats } = report;
    lines.push(
      `  ${report.path} ${report.pattern}${
        report.recursive ? " (recursive)" : ""
      } → ${report.action}: ${watcherStateText(report)}`,
    );
    if (!stats.lastReconcileAt && !stats.seen && !stats.queued) continue;
    lines.push(
      `    ${count(stats.seen)} files seen, ${count(stats.queued)} queued, ${
        count(stats.settling)
      } settling`,
    );
    const last = stats.lastReconcileAt
      ? `${formatStoredTime(stats.lastReconcileAt, timeZone, { zone: true })} (${
        reconcileReasonText[stats.lastReconcileReason ?? ""] ?? stats.lastReconcileReason
      }, ${stats.lastReconcileMs ?? 0} ms)`
      : "never";
    lines.push(
      `    last reconcile: ${last}; ${count(stats.foundByReconcile)} files found only by ` +
        `reconciling${stats.foundByReconcile ? " (the OS event stream lost them)" : ""}`,
    );
    lines.push(
      `    ${count(stats.recovered)} files found at start (arrived while Radar was down); ` +
        `${count(stats.rescans)} rescans after dropped-event flags`,
    );
  }
  return lines;
}
