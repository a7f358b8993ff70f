/** Files the folder watchers have seen, settled on stored rows, and per-folder watcher counters. */
import type { DatabaseSync } from "node:sqlite";
import { statement } from "./statements.ts";
import { transaction, write } from "./write.ts";
import {
  isStartReconcile,
  type ReconcileReason,
  type ReconcileRecord,
  type SeenFile,
  type SettlingFile,
  type WatchedFolders,
  type WatcherStats,
  type WatchLedger,
} from "../../sources/watched_folders.ts";
import { camelRecord, columnsOf, selectAll } from "./rows.ts";

/** The columns of a stored file, and of one still settling, in their records' key order. */
const seenColumns = columnsOf<SeenFile>()("path size mtime_ms");
const settlingColumns = columnsOf<SettlingFile>()("path size mtime_ms stable_since_ms");

/** What the write helper names when a write fails. */
const seenFile = "a watched file";
const watcherCounts = "the watcher counts";

/** Rows read per page when loading a folder's stored files. */
const knownPage = 5_000;

/** The `watched_files` and `watcher_stats` tables. */
export class SqliteWatchedFileStore implements WatchedFolders {
  constructor(private readonly db: DatabaseSync) {}

  /** One folder's ledger; `queue` runs in the transaction that marks settled files queued. */
  ledger(folder: string, queue: (files: readonly SeenFile[]) => void): WatchLedger {
    return {
      record: (files, nowMs, flags) => this.record(folder, files, nowMs, flags),
      settling: (limit) => this.settling(folder, limit),
      restart: (files, nowMs) => this.restart(folder, files, nowMs),
      forget: (paths) => this.forget(folder, paths),
      known: () => this.known(folder),
      hasBaseline: () => this.hasBaseline(folder),
      countReconcile: (record) => this.countReconcile(folder, record),
      finish: (files) =>
        transaction(this.db, () => {
          queue(files);
          this.markQueued(folder, files);
        }),
    };
  }

  /** Records seen files of `folder` (see `WatchLedger.record`). */
  record(
    folder: string,
    files: readonly SeenFile[],
    nowMs: number,
    options: { baseline?: boolean } = {},
  ): number {
    if (!files.length) return 0;
    const at = new Date(nowMs).toISOString();
    const state = options.baseline ? "baseline" : "settling";
    return transaction(this.db, () => {
      const insert = `INSERT OR IGNORE INTO watched_files
           (folder, path, size, mtime_ms, state, first_seen_at, stable_since_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?)`;
      const update = `UPDATE watched_files SET size = ?, mtime_ms = ?, stable_since_ms = ?,
           state = CASE WHEN state = 'settling' THEN 'settling' ELSE ? END
         WHERE folder = ? AND path = ? AND (size != ? OR mtime_ms != ?)`;
      let added = 0;
      for (const file of files) {
        const { changes } = write(
          this.db,
          seenFile,
          insert,
          folder,
          file.path,
          file.size,
          file.mtimeMs,
          state,
          at,
          nowMs,
        );
        if (changes) {
          added++;
          continue;
        }
        write(
          this.db,
          seenFile,
          update,
          file.size,
          file.mtimeMs,
          nowMs,
          state,
          folder,
          file.path,
          file.size,
          file.mtimeMs,
        );
      }
      return added;
    });
  }

  /** Settling files of `folder`, oldest first. */
  settling(folder: string, limit: number): SettlingFile[] {
    return selectAll(
      this.db,
      (row) => camelRecord(row, settlingColumns),
      `SELECT path, size, mtime_ms, stable_since_ms FROM watched_files
       WHERE folder = ? AND state = 'settling' ORDER BY stable_since_ms LIMIT ?`,
      folder,
      limit,
    );
  }

  /** New fingerprints of files still changing. */
  restart(folder: string, files: readonly SeenFile[], nowMs: number): void {
    transaction(this.db, () => {
      const update = `UPDATE watched_files SET size = ?, mtime_ms = ?, stable_since_ms = ?
         WHERE folder = ? AND path = ?`;
      for (const file of files) {
        write(this.db, seenFile, update, file.size, file.mtimeMs, nowMs, folder, file.path);
      }
    });
  }

  /** Forgets files that are gone. */
  forget(folder: string, paths: readonly string[]): void {
    transaction(this.db, () => {
      const remove = "DELETE FROM watched_files WHERE folder = ? AND path = ?";
      for (const path of paths) write(this.db, seenFile, remove, folder, path);
    });
  }

  /** Marks files queued (call inside the transaction that queues their events). */
  markQueued(folder: string, files: readonly SeenFile[]): void {
    const update = `UPDATE watched_files SET state = 'queued', size = ?, mtime_ms = ?
       WHERE folder = ? AND path = ?`;
    for (const file of files) {
      write(this.db, seenFile, update, file.size, file.mtimeMs, folder, file.path);
    }
    this.#bump(folder, "queued", files.length);
  }

  /**
   * Every stored file of `folder`, read a page at a time in key order (each page a seek), so
   * the rows of a 100,000-file folder are never all in memory as objects at once.
   */
  known(folder: string): Map<string, SeenFile> {
    const known = new Map<string, SeenFile>();
    let after = "";
    for (;;) {
      const files = selectAll(
        this.db,
        (row) => camelRecord(row, seenColumns),
        `SELECT path, size, mtime_ms FROM watched_files
         WHERE folder = ? AND path > ? ORDER BY path LIMIT ?`,
        folder,
        after,
        knownPage,
      );
      for (const file of files) known.set(file.path, file);
      if (files.length < knownPage) return known;
      after = files[files.length - 1].path;
    }
  }

  /** True once `folder` was scanned. */
  hasBaseline(folder: string): boolean {
    return statement(
      this.db,
      "SELECT 1 FROM watcher_stats WHERE folder = ? AND last_scan_at IS NOT NULL",
    )
      .get(folder) !== undefined;
  }

  /**
   * Counts a reconcile of `folder`: a start scan's files arrived while nobody watched
   * (`recovered`); any other reconcile's are files the OS event stream lost (`found_by_reconcile`).
   */
  countReconcile(folder: string, record: ReconcileRecord): void {
    const at = record.at.toISOString();
    transaction(this.db, () => {
      if (isStartReconcile(record.reason)) {
        this.#bump(folder, "scans", 1);
        this.#bump(folder, "recovered", record.found);
      } else {
        this.#bump(folder, "reconciles", 1);
        if (record.reason === "overflow") this.#bump(folder, "rescans", 1);
        this.#bump(folder, "found_by_reconcile", record.found);
      }
      this.#statsRow(folder);
      write(
        this.db,
        watcherCounts,
        `UPDATE watcher_stats SET last_reconcile_at = ?, last_reconcile_reason = ?,
           last_reconcile_ms = ?,
           last_scan_at = CASE WHEN ? THEN ? ELSE last_scan_at END
         WHERE folder = ?`,
        at,
        record.reason,
        Math.round(record.durationMs),
        isStartReconcile(record.reason) ? 1 : 0,
        at,
        folder,
      );
    });
  }

  /** Counters of `folder` (zeros when never watched). */
  stats(folder: string): WatcherStats {
    const row = statement(this.db, "SELECT * FROM watcher_stats WHERE folder = ?").get(folder) as
      | Record<string, number | string | null>
      | undefined;
    const counts = statement(
      this.db,
      `SELECT COUNT(*) AS seen, COALESCE(SUM(state = 'settling'), 0) AS settling
       FROM watched_files WHERE folder = ?`,
    ).get(folder) as { seen: number; settling: number };
    const text = (value: number | string | null | undefined) =>
      typeof value === "string" ? value : undefined;
    const stats: WatcherStats = {
      folder,
      seen: Number(counts.seen),
      queued: Number(row?.queued ?? 0),
      settling: Number(counts.settling),
      scans: Number(row?.scans ?? 0),
      recovered: Number(row?.recovered ?? 0),
      reconciles: Number(row?.reconciles ?? 0),
      rescans: Number(row?.rescans ?? 0),
      foundByReconcile: Number(row?.found_by_reconcile ?? 0),
    };
    const lastScanAt = text(row?.last_scan_at);
    if (lastScanAt) stats.lastScanAt = lastScanAt;
    const lastReconcileAt = text(row?.last_reconcile_at);
    if (lastReconcileAt) {
      stats.lastReconcileAt = lastReconcileAt;
      stats.lastReconcileReason = text(row?.last_reconcile_reason) as ReconcileReason | undefined;
      stats.lastReconcileMs = Number(row?.last_reconcile_ms ?? 0);
    }
    return stats;
  }

  /** The folder's row of counts, created when missing. */
  #statsRow(folder: string): void {
    write(
      this.db,
      watcherCounts,
      "INSERT OR IGNORE INTO watcher_stats (folder) VALUES (?)",
      folder,
    );
  }

  #bump(
    folder: string,
    column: "scans" | "rescans" | "recovered" | "queued" | "reconciles" | "found_by_reconcile",
    by: number,
  ): void {
    if (!by) return;
    this.#statsRow(folder);
    write(
      this.db,
      watcherCounts,
      `UPDATE watcher_stats SET ${column} = ${column} + ? WHERE folder = ?`,
      by,
      folder,
    );
  }
}
