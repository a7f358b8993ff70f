/**
 * Ports of the durable folder watchers: what a watcher stores about each file it has seen (the
 * ledger), why it compared a folder with that ledger (a reconcile), and the per-folder counters
 * `radar status` and the dashboard show.
 */

/** A file as the ledger stores it: its path and fingerprint. */
export interface SeenFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** A stored file that is still settling. */
export interface SettlingFile extends SeenFile {
  stableSinceMs: number;
}

/**
 * Why a folder was compared with the ledger. `start` and `reappeared` find files that arrived
 * while nobody watched; every other reason runs while the OS watcher was supposed to report
 * everything, so a file found then is one the OS event stream lost.
 */
export type ReconcileReason =
  | "start"
  | "reappeared"
  /** The OS said it dropped events (Deno's `rescan` flag). */
  | "overflow"
  /** Events arrived faster than the burst threshold. */
  | "burst"
  /** A folder appeared inside a recursive watch (its files may never have had events). */
  | "new_folder"
  /** The watched folder was replaced by another one at the same path. */
  | "replaced"
  /** The OS watcher stopped with an error. */
  | "error"
  /** The periodic check while nothing happens. */
  | "idle";

/** True for the reasons that only look at what arrived while nobody watched. */
export function isStartReconcile(reason: ReconcileReason): boolean {
  return reason === "start" || reason === "reappeared";
}

/** What one reconcile did, for the counters. */
export interface ReconcileRecord {
  reason: ReconcileReason;
  /** Files the ledger did not know (or that changed) and that now settle. */
  found: number;
  at: Date;
  durationMs: number;
}

/** The watcher's durable memory of one folder (SQLite in the daemon). */
export interface WatchLedger {
  /** Records seen files: new ones and changed ones settle again. Returns how many were new. */
  record(files: readonly SeenFile[], nowMs: number, options?: { baseline?: boolean }): number;
  /** Up to `limit` settling files, oldest first. */
  settling(limit: number): SettlingFile[];
  /** Files still changing: their new fingerprint, stable from `nowMs`. */
  restart(files: readonly SeenFile[], nowMs: number): void;
  /** Forgets files that are gone. */
  forget(paths: readonly string[]): void;
  /** Marks settled files finished and queues their events, in one transaction. */
  finish(files: readonly SeenFile[]): void;
  /** Every stored file: path → fingerprint (read a page at a time). */
  known(): Map<string, SeenFile>;
  /** True once the folder was scanned before (its content then is the baseline, not news). */
  hasBaseline(): boolean;
  /** Counts a reconcile: why, how many files it found, when and how long it took. */
  countReconcile(record: ReconcileRecord): void;
}

/** Port: the durable memory of every watched folder. */
export interface WatchedFolders {
  /** One folder's ledger; `queue` runs in the transaction that marks settled files queued. */
  ledger(folder: string, queue: (files: readonly SeenFile[]) => void): WatchLedger;
  stats(folder: string): WatcherStats;
}

/** A watched folder's counters, for `radar status` (text and --json) and the dashboard. */
export interface WatcherStats {
  folder: string;
  /** Files the watcher knows in the folder now (queued, settling or there before it watched). */
  seen: number;
  /** Files queued as events. */
  queued: number;
  settling: number;
  /** Scans at start or when the folder reappeared. */
  scans: number;
  /** Files only a start scan found (they arrived while the daemon was down). */
  recovered: number;
  /** Reconciles while watching (after bursts, dropped-event flags, errors, and while idle). */
  reconciles: number;
  /** Of those, how many followed Deno's `rescan` flag (the OS said it dropped events). */
  rescans: number;
  /** Files only a reconcile while watching found: a non-zero count means the OS lost events. */
  foundByReconcile: number;
  lastScanAt?: string;
  lastReconcileAt?: string;
  lastReconcileReason?: ReconcileReason;
  lastReconcileMs?: number;
}

/** One configured watcher as `radar status` (text and --json) and the dashboard show it. */
export interface WatcherReport {
  /** The path as configured (`~/Downloads`). */
  path: string;
  /** The folder it names. */
  folder: string;
  pattern: string;
  action: string;
  recursive: boolean;
  /** Whether the folder is there now. */
  state: "ok" | "missing" | "not_a_folder";
  stats: WatcherStats;
}
