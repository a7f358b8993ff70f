/** Files the folder watchers have seen, settled on stored rows, and per-folder watcher counters. */
import type { DatabaseSync } from "node:sqlite";
import { statement } from "./statements.ts";
import { write } from "./write.ts";
import type {
  ScanReason,
  SeenFile,
  SettlingFile,
  WatchedFolders,
  WatcherStats,
  WatchLedger,
} from "../file_watcher.ts";
import { transaction } from "./database.ts";

interface FileRow {
  path: string;
  size: number;
  mtime_ms: number;
  state: string;
  stable_since_ms: number;
}

/** What the write helper names when a write fails. */
const seenFile = "a watched file";
const watcherCounts = "the watcher counts";
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
      countScan: (reason, found, at) => this.countScan(folder, reason, found, at),
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
    const rows = statement(
      this.db,
      `SELECT path, size, mtime_ms, state, stable_since_ms FROM watched_files
       WHERE folder = ? AND state = 'settling' ORDER BY stable_since_ms LIMIT ?`,
    ).all(folder, limit) as unknown as FileRow[];
    return rows.map((row) => ({
      path: row.path,
      size: Number(row.size),
      mtimeMs: Number(row.mtime_ms),
      stableSinceMs: Number(row.stable_since_ms),
    }));
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

  /** Every known file of `folder`. */
  known(folder: string): Map<string, SeenFile> {
    const rows = statement(
      this.db,
      "SELECT path, size, mtime_ms FROM watched_files WHERE folder = ?",
    ).all(folder) as unknown as FileRow[];
    return new Map(
      rows.map((row) => [row.path, {
        path: row.path,
        size: Number(row.size),
        mtimeMs: Number(row.mtime_ms),
      }]),
    );
  }

  /** True once `folder` was scanned. */
  hasBaseline(folder: string): boolean {
    return statement(
      this.db,
      "SELECT 1 FROM watcher_stats WHERE folder = ? AND last_scan_at IS NOT NULL",
    )
      .get(folder) !== undefined;
  }

  /** Counts a scan of `folder`. */
  countScan(folder: string, reason: ScanReason, found: number, at: Date): void {
    transaction(this.db, () => {
      this.#bump(folder, reason === "rescan" ? "rescans" : "scans", 1);
      this.#bump(folder, "recovered", found);
      write(
        this.db,
        watcherCounts,
        "UPDATE watcher_stats SET last_scan_at = ? WHERE folder = ?",
        at.toISOString(),
        folder,
      );
    });
  }

  /** Counters of `folder` (zeros when never watched). */
  stats(folder: string): WatcherStats {
    const row = statement(this.db, "SELECT * FROM watcher_stats WHERE folder = ?").get(folder) as
      | Record<string, number | string | null>
      | undefined;
    const settling = Number(
      (statement(
        this.db,
        "SELECT COUNT(*) AS n FROM watched_files WHERE folder = ? AND state = 'settling'",
      ).get(folder) as { n: number }).n,
    );
    return {
      folder,
      scans: Number(row?.scans ?? 0),
      rescans: Number(row?.rescans ?? 0),
      recovered: Number(row?.recovered ?? 0),
      queued: Number(row?.queued ?? 0),
      settling,
      lastScanAt: (row?.last_scan_at as string | null) ?? undefined,
    };
  }

  #bump(folder: string, column: "scans" | "rescans" | "recovered" | "queued", by: number): void {
    if (!by) return;
    write(
      this.db,
      watcherCounts,
      "INSERT OR IGNORE INTO watcher_stats (folder) VALUES (?)",
      folder,
    );
    write(
      this.db,
      watcherCounts,
      `UPDATE watcher_stats SET ${column} = ${column} + ? WHERE folder = ?`,
      by,
      folder,
    );
  }
}
